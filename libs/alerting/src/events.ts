/**
 * The alerting context's published events beyond the generic `<singular>.created|updated|deleted`
 * of its resources (docs/events.md, Alerting). Every one carries the alert's snapshot.
 */
export const ALERT_EVENTS = {
  acknowledged: 'alert.acknowledged',
  resolved: 'alert.resolved',
  snoozed: 'alert.snoozed',
  escalated: 'alert.escalated',
  /** A move that stops pending paging; the snapshot plus `previous_status`. */
  pagingCancelled: 'alert.paging_cancelled',
} as const;

export type AlertEventType = (typeof ALERT_EVENTS)[keyof typeof ALERT_EVENTS];
