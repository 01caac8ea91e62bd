export * from './config';
export { isCidr } from './environment';
export * from './logger';
export * from './clock';
