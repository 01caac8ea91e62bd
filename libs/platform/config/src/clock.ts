/** Time is injected (architecture rule 10) so tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const CLOCK = Symbol('CLOCK');
