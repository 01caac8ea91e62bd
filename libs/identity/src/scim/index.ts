export { issueScimToken, SCIM_BASE_PATH } from './scim-token';
