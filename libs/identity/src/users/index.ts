export { userSchema, updateUserSchema } from './user.schema';
export { UsersModule } from './users.module';
export { USER_EVENTS } from './users.service';
