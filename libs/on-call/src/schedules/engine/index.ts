export { computeShifts } from './shift-engine';
export type * from './types';
