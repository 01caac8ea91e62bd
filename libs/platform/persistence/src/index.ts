export * from './data-source';
export * from './database-unavailable';
export * from './embedded/embedded-postgres';
export * from './embedded/free-port';
export * from './tenancy';
export * from './testing';
export * from './read-model-tables';
