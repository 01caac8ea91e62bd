export * from './resource-definition';
export * from './resource-writer';
export * from './resource-reader';
export * from './resource-projection';
export * from './resource-commands';
export * from './resource-controller';
export * from './slug';
