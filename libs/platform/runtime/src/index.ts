export * from './runtime';
export * from './platform.module';
export * from './nest-logger';
export * from './start-nest-app';
export * from './run-process';
export * from './health.controller';
export * from './context-descriptor';
