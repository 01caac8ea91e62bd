export * from './auth-test-harness';
