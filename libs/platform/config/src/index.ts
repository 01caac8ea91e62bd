export * from './config';
export { isCidr } from './environment';
export * from './logger';
export * from './clock';
export * from './time-zones';
