export * from './openapi-document';
export * from './operation-documents';
