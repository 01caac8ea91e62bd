export { userSchema, updateUserSchema } from './user.schema';
export { UsersModule } from './users.module';
export { OperatorUsers, type OrganizationMember } from './operator-users';
