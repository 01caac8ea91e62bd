export * from './role.schema';
export * from './role-definitions';
export * from './system-roles';
export * from './roles.module';
export * from './role-assignment';
