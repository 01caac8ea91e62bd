// resource-schema.ts is re-exported by the lib's src/index.ts directly.
export * from './json-schema';
export * from './payload';
export * from './ids';
export * from './key-value-pairs';
