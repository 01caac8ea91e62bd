export * from './role.schema';
export * from './role-definitions';
export * from './system-roles';
export * from './role-assignment';
