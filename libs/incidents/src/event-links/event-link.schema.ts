import { defineResource } from '@taproot/json-api';
import { checkReferenced, type ParentAccess, type Reference, type ResourceDefinition } from '@taproot/resources';
import { FUNCTIONALITIES, SERVICES } from '../incident-children/references';
import { incidentAccess } from '../incidents/incident-access';
import { findEvent } from '../timeline/timeline';

/** How a timeline event left a service or functionality (reference: `incident_event_service`). */
export const EVENT_LINK_STATUSES = ['operational', 'partial_outage', 'major_outage'] as const;

/** A timeline event's links are seen as the event is: as its incident (private incidents, 404). */
const eventParentAccess: ParentAccess = {
  async find(db, caller, raw) {
    return String((await findEvent(db, 'read', incidentAccess(caller), raw)).id);
  },
};

/**
 * The services (or functionalities) a timeline event affected, with their status then: created
 * and listed under the event (`/v1/events/{incident_event_id}/services`), read, changed (the
 * status) and deleted at `/v1/incident_event_services/{id}`. The linked record must be of the
 * organization; it is not locked (a service deleted since leaves its id behind, like an
 * incident's `service_ids`).
 */
function eventLink(linked: 'service' | 'functionality', plural: 'services' | 'functionalities', reference: Reference): ResourceDefinition {
  const type = `incident_event_${plural}`;
  const attribute = `${linked}_id`;
  const schema = defineResource({
    type,
    singular: `incident_event_${linked}`,
    path: `/v1/${type}`,
    readTable: `${type}_read`,
    defaultSort: 'created_at',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    parent: { path: '/v1/events', param: 'incident_event_id', attribute: 'incident_event_id', table: 'incident_events', segment: plural },
    attributes: {
      incident_event_id: { type: 'string', format: 'uuid', writable: 'create', description: 'ID of the incident event (the path decides)' },
      // update_incident_event_<linked> takes the status only: a link keeps what it links.
      [attribute]: { type: 'string', format: 'uuid', required: true, writable: 'create', description: `ID of the ${linked}` },
      status: { type: 'string', enum: EVENT_LINK_STATUSES, required: true, description: `The status of the affected ${linked}` },
    },
  });
  return {
    schema,
    context: 'incidents',
    table: type,
    // A timeline's records: read on incidents to read, update to write (docs/incidents.md, Timeline).
    permission: { family: 'incidents', writes: 'update' },
    parentAccess: eventParentAccess,
    rules: { beforeCreate: (attributes, ctx) => checkReferenced(ctx, attributes, { [attribute]: reference }) },
  };
}

export const incidentEventServiceDefinition = eventLink('service', 'services', SERVICES);
export const incidentEventFunctionalityDefinition = eventLink('functionality', 'functionalities', FUNCTIONALITIES);
