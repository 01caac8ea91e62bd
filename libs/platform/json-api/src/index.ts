export * from './resource/resource-schema';
export * from './resource';
export * from './errors/json-api-error';
export * from './errors/domain-error';
export * from './document/documents';
export * from './query';
export * from './openapi';
export * from './bulk/bulk';
