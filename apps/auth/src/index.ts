export { startAuth } from './start-auth';
