/** Pure ingestion mappers: a sender's payload to alert drafts (no I/O, no Nest, no database). */
export * from './alert-draft';
export { evaluateJsonPath, JsonPathError, parseJsonPath, type JsonPathStep } from './json-path';
export * from './generic-webhook';
export * from './alertmanager';
export * from './email';
export * from './pagerduty-events';
export * from './signature';
export * from './rules';
export * from './template';
export * from './alert-fields';
