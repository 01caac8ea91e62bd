import type { Caller } from '@taproot/auth';

/**
 * Resolves the incidents an alert is attached to, as the caller who resolved the alert with
 * `resolve_related_incidents` (reference `resolve_alert`). Provided by the incidents context under
 * ALERT_INCIDENT_RESOLVER; alerting never writes incidents itself.
 */
export interface AlertIncidentResolver {
  /** Resolves those of `ids` the caller may see; one that cannot be resolved (cancelled) is left as it is. */
  resolve(principal: Caller, ids: readonly string[], message: string | null): Promise<void>;
}
export const ALERT_INCIDENT_RESOLVER = Symbol('ALERT_INCIDENT_RESOLVER');
