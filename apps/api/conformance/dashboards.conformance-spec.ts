import { CATALOG_KNOWN_STRICTER, describeReferenceConformance, made } from './support/reference-conformance';
import { unique as named } from '../test/support/json-api';
import type { TestApi, TestOrganization } from '../src/testing';

/** The reference conformance of dashboards and their panels (docs/dashboards.md). */

describeReferenceConformance({
  type: 'dashboards',
  path: '/v1/dashboards',
  singular: 'dashboard',
  // A range is two ISO 8601 times separated by "to" (the reference's own description of the panel read's range).
  pick: (name) => (name === 'range' ? '2026-01-01T00:00:00Z to 2026-01-31T00:00:00Z' : undefined),
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    'range=<10000 chars>': 'two ISO 8601 times separated by "to": the panels read their window from it',
    'icon=<10000 chars>': 'an emoji: at most 32 characters',
  },
});

const newDashboard = (api: TestApi, org: TestOrganization) => made(api, org, '/v1/dashboards', 'dashboards', { name: named('Dashboard'), owner: 'team' });

describeReferenceConformance({
  type: 'dashboard_panels',
  path: '/v1/dashboard_panels',
  singular: 'dashboard_panel',
  parent: { singular: 'dashboard', path: '/v1/dashboards', collection: '/v1/dashboards/{dashboard_id}/panels', attribute: 'dashboard_id', make: newDashboard },
  // A generated dataset names attributes its collection may not have; a plain count of incidents always reads.
  pick: (name) => (name === 'params' ? { display: 'line_chart', datasets: [{ collection: 'incidents', aggregate: { operation: 'count', cumulative: false } }] } : undefined),
  knownStricter: {
    'name=<10000 chars>': 'maxLength 255',
    'params={...,extra_member}': "a dataset's filter keys are attributes of its collection; the generated sample names none",
  },
});
