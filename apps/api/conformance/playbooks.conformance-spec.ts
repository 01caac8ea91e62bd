import { unique as named } from '../test/support/json-api';
import { describeReferenceConformance, INT4_BOUNDED, made } from './support/reference-conformance';

/** The reference conformance of playbooks and their tasks (docs/playbooks.md). */

describeReferenceConformance({
  type: 'playbooks',
  path: '/v1/playbooks',
  singular: 'playbook',
  // Every relation names records of the organization.
  references: async (api, org) => ({
    severity_ids: [await made(api, org, '/v1/severities', 'severities', { name: named('SEV'), severity: 'critical' })],
    environment_ids: [await made(api, org, '/v1/environments', 'environments', { name: named('Production') })],
    functionality_ids: [await made(api, org, '/v1/functionalities', 'functionalities', { name: named('Checkout') })],
    service_ids: [await made(api, org, '/v1/services', 'services', { name: named('Payments') })],
    group_ids: [await made(api, org, '/v1/teams', 'groups', { name: named('SRE') })],
    incident_type_ids: [await made(api, org, '/v1/incident_types', 'incident_types', { name: named('Outage') })],
  }),
  knownStricter: { 'title=""': 'minLength 1: a playbook has a title', 'title=<10000 chars>': 'maxLength 255' },
});

describeReferenceConformance({
  type: 'playbook_tasks',
  path: '/v1/playbook_tasks',
  singular: 'playbook_task',
  // A playbook of its own, so the nested list holds the suite's tasks only.
  parent: {
    singular: 'playbook',
    path: '/v1/playbooks',
    collection: '/v1/playbooks/{playbook_id}/playbook_tasks',
    attribute: 'playbook_id',
    make: (api, org) => made(api, org, '/v1/playbooks', 'playbooks', { title: named('Playbook') }),
  },
  assignedWhenNull: ['position'],
  knownStricter: { 'task=""': 'minLength 1: a task says what to do', 'position=-1': 'minimum 0' },
  mayRefuse: INT4_BOUNDED,
});
