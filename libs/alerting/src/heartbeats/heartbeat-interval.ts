/** The reference's `interval_unit` values. */
export const HEARTBEAT_INTERVAL_UNITS = ['minutes', 'hours', 'days'] as const;
export type HeartbeatIntervalUnit = (typeof HEARTBEAT_INTERVAL_UNITS)[number];

const UNIT_MS: Record<HeartbeatIntervalUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** The longest interval taken: a year (a longer one is a typo, and would push deadlines past what dates hold safely). */
export const MAX_INTERVAL_MS = 366 * UNIT_MS.days;

/** `interval` `interval_unit` in milliseconds. */
export const intervalMs = (interval: number, unit: HeartbeatIntervalUnit): number => interval * UNIT_MS[unit];

/** When a heartbeat pinged at `pingedAt` expires unless pinged again. */
export const deadlineAfter = (pingedAt: Date, interval: number, unit: HeartbeatIntervalUnit): Date => new Date(pingedAt.getTime() + intervalMs(interval, unit));
