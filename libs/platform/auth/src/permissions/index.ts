export * from './permission-model';
export * from './permission-set';
export * from './scopes';
export * from './effective-permissions';
export * from './require-permission';
export * from './permission-resolver';
export * from './permission.guard';
export * from './team-ownership';
