export * from './openapi-document';
