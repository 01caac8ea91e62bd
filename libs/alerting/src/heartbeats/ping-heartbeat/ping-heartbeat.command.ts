import type { AlertAccess } from '../../alerts/alert-writes';

/**
 * Who pings (docs/heartbeats.md): a caller of the organization (`POST /v1/heartbeats/{id}/ping`),
 * the bearer `secret` of the heartbeat (its `ping_url`), or mail to its `email_address`.
 */
export type PingCredential = { kind: 'caller'; access: AlertAccess; id: string } | { kind: 'secret'; id: string; secret: string | null } | { kind: 'email'; recipients: string[] };

/** A heartbeat is pinged: it is active for another interval, and the alert of its expiry is resolved. */
export class PingHeartbeatCommand {
  constructor(readonly credential: PingCredential) {}
}
