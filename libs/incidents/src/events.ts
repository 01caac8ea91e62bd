import type { IncidentStatus } from './incidents/incident.state';

/**
 * The incidents context's published events beyond the generic `<singular>.created|updated|deleted`
 * of its resources (docs/events.md, Incidents). Each carries the incident's snapshot.
 */
export const INCIDENT_EVENTS = {
  restarted: 'incident.restarted',
  markedAsDuplicate: 'incident.marked_as_duplicate',
  unmarkedAsDuplicate: 'incident.unmarked_as_duplicate',
  attachedToParent: 'incident.attached_to_parent',
  detachedFromParent: 'incident.detached_from_parent',
  subscribersAdded: 'incident.subscribers_added',
  subscribersRemoved: 'incident.subscribers_removed',
  roleAssigned: 'incident.role_assigned',
  roleUnassigned: 'incident.role_unassigned',
  alertsAttached: 'incident.alerts_attached',
  alertsDetached: 'incident.alerts_detached',
} as const;

/** A status move announces `incident.<status>` (a restart instead, from an outcome: INCIDENT_EVENTS.restarted). */
export type IncidentStatusEvent = `incident.${IncidentStatus}`;

export type IncidentEventType = (typeof INCIDENT_EVENTS)[keyof typeof INCIDENT_EVENTS] | IncidentStatusEvent;

/** A bulk import's one announcement (aggregate `incident_imports`): `{ id, incidents: [{ id, sequential_id, external_id }] }`. */
export const INCIDENT_IMPORT_COMPLETED = 'incident_import.completed';
