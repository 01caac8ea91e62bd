/** Which PagerDuty Events API v2 route received the event: an alert event, or a change event. */
export type PagerDutyRoute = 'alert' | 'change';

/**
 * An event a PagerDuty Events API v2 sender posted (docs/pagerduty-events.md): its routing key
 * names the alert source; a trigger opens or deduplicates an alert, acknowledge and resolve act
 * on the source's unresolved alert with the dedup_key, a change event is recorded as a resolved alert.
 */
export class EnqueuePagerDutyEventCommand {
  constructor(
    readonly route: PagerDutyRoute,
    readonly body: unknown,
  ) {}
}

/** PagerDuty's answer: 202 with `status: success`, or 400 with `status: invalid event` and the errors. */
export interface PagerDutyAnswer {
  status: 202 | 400;
  body: { status: string; message: string; dedup_key?: string; errors?: string[] };
}
