export * from './api-test-harness';
