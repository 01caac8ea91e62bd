export { startApi } from './start-api';
export { ALL_MIGRATIONS } from './migrations';
export { apiDocument } from './http/openapi.controller';
