export * from './runtime';
export * from './platform.module';
export * from './nest-logger';
export * from './start-nest-app';
export * from './run-process';
export * from './probes';
export * from './context-descriptor';
export * from './html';
