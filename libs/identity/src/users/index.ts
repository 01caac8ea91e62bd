export { userSchema, updateUserSchema } from './user.schema';
export { UsersModule } from './users.module';
