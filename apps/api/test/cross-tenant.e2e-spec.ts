/**
 * Cross-tenant walk: every route with an id parameter, given a record of another organization,
 * answers 404 like a missing id and reveals nothing of that record. Nested routes are walked for
 * each id parameter in turn: another organization's parent, and another organization's record
 * under a parent of the caller's. Routes come from the router (Fastify's route tree), request
 * bodies and which route creates a record from the served OpenAPI document, so a new route is
 * either exercised here or fails the suite.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { eventually, startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { servedRoutes, type Route } from './support/routes';
import { weeklySchedule } from './support/schedules';
import { seedDelivery } from './support/webhook-deliveries';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The schema a `$ref` of the document points at, or the schema itself. */
const resolved = (schema: Json, doc: Json): Json => (schema?.$ref ? resolved(doc.components.schemas[schema.$ref.split('/').pop()], doc) : schema);

/** A minimal valid value for a JSON schema (required properties only), strings carrying `marker`. */
function minimal(schema: Json, doc: Json, marker: string): Json {
  if (schema?.$ref) return minimal(resolved(schema, doc), doc, marker);
  if (schema?.enum) return schema.enum[0];
  if (schema?.nullable && schema.type !== 'object' && schema.type !== 'string') return null;
  switch (schema?.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k: string) => [k, minimal(schema.properties?.[k], doc, marker)]));
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'email') return `${marker}@example.test`;
      return marker.slice(0, schema.maxLength ?? marker.length);
    default:
      return null;
  }
}

/** Per-type attributes where the first enum value or a minimal body is not enough. */
const FALLBACK_ATTRIBUTES: Record<string, Record<string, unknown>> = {
  api_keys: { kind: 'organization' },
  // A scope is free text the minimal body fills with the marker; it must name real scopes.
  oauth_applications: { scope: 'ir.services:read' },
  // A rotation's handoff depends on its type; spans end after they start.
  schedule_rotations: { schedule_rotationable_attributes: { handoff_time: '09:00' } },
  shifts: { starts_at: '2026-12-01T09:00:00Z', ends_at: '2026-12-01T17:00:00Z' },
  // A pay report's period is two calendar dates; its zone and currency are names (no marker fits).
  on_call_pay_reports: { start_date: '2026-12-01', end_date: '2026-12-07', time_zone: 'Europe/Paris', currency: 'EUR' },
  on_call_shadows: { shadowable_type: 'Schedule', starts_at: '2026-12-01T09:00:00Z', ends_at: '2026-12-01T17:00:00Z' },
  // E.164 (digits only: no marker), another each time (a user has a number once): a getter, read by each spread.
  user_phone_numbers: {
    get phone() {
      return `+1415${String(randomInt(10_000_000)).padStart(7, '0')}`;
    },
  },
  // A router's number is E.164, another each time.
  live_call_routers: {
    get phone_number() {
      return `+1415${String(randomInt(10_000_000)).padStart(7, '0')}`;
    },
  },
  // A task's params are one of the reference's task types, with its required members.
  workflow_tasks: { task_params: { task_type: 'add_to_timeline', event: 'walked' } },
  // Devices are not served: a rule names none (its other strings are ids).
  user_notification_rules: { user_device_id: null },
  // A level's path is one of its policy (none here); its targets' ids name records, a channel's is free.
  escalation_levels: { escalation_policy_path_id: null, notification_target_params: [{ id: 'C06Q2JK7RQW', type: 'slack_channel' }] },
  // A placement's form is one of its form set's.
  form_sets: { forms: ['web_new_incident_form'] },
  form_field_placements: { form: 'web_new_incident_form' },
  incident_permission_set_resources: { resource_type: 'Severity' },
  // A process copies its steps from another process of the organization, or the starter template.
  retrospective_processes: { copy_from: 'starter_template' },
  // A receiver's absolute URL (the marker goes in the name).
  webhooks_endpoints: { url: 'https://receiver.example.test/hooks' },
  // A hostname, once per organization (the marker has no place in one).
  verified_domains: {
    get domain() {
      return `${randomUUID().slice(0, 8)}.example.test`;
    },
  },
};

/**
 * Attributes that must name a record of the requesting organization, and the collection to make
 * one in: a request names its own organization's, so its answer is about the path's ids alone.
 */
const REFERENCED: Record<string, string> = {
  service_id: '/v1/services',
  functionality_id: '/v1/functionalities',
  sub_status_id: '/v1/sub_statuses',
  user_id: '/v1/users',
  shadow_user_id: '/v1/users',
  shadowable_id: '/v1/schedules',
  // A status page team grant names a team (type groups).
  group_id: '/v1/teams',
  form_set_id: '/v1/form_sets',
  form_field_id: '/v1/form_fields',
  custom_field_id: '/v1/custom_fields',
  // Communications templates and groups are of a communications type.
  communication_type_id: '/v1/communications/types',
};


const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
const ID_PARAM = /\/:([A-Za-z_]*id)\b/;
const ID_PARAMS = new RegExp(ID_PARAM.source, 'g');
/** A route that names one record by its last segment (`/v1/services/:id`), not a collection. */
const ENDS_IN_ID = new RegExp(`${ID_PARAM.source}$`);

interface MadeRecord {
  id: string;
  marker: string;
  /**
   * Whether its documents show the marker; a record with no free-form text (a link between
   * records) is known by its id and its first read instead.
   */
  shown: boolean;
  /** Where its organization reads it. */
  read: string;
  /** The attributes its organization first read. */
  attributes: string;
}

describe('cross-tenant walk: another organization\'s id answers 404 on every route', () => {
  let api: TestApi;
  let a: TestOrganization;
  let b: TestOrganization;
  let doc: Json;
  let routes: Route[];
  before(async () => {
    api = await startTestApi();
    a = await api.newOrganization();
    b = await api.newOrganization();
    doc = (await api.request('GET', '/v1/openapi.json', { token: a.token })).body;
    routes = servedRoutes(api);
  });
  after(() => api.close());

  const operation = (path: string, method: string): Json => doc.paths[openApiPath(path)]?.[method.toLowerCase()];
  const creates = (path: string, method: string) => method === 'POST' && operation(path, method)?.responses?.['201'] !== undefined;

  /** A minimal valid body of `org`'s for the operation, carrying `marker` where an attribute can. */
  const bodyFor = async (org: TestOrganization, path: string, method: string, marker: string): Promise<unknown> => {
    const schema = operation(path, method)?.requestBody?.content?.['application/vnd.api+json']?.schema;
    if (!schema) return undefined;
    // A oneOf of request documents (a workflow run's subjects) has no minimal form: an empty document.
    const body = minimal(schema, doc, marker) ?? {};
    // `data` and `attributes` are required but may be empty objects for update schemas.
    body.data ??= {};
    body.data.type ??= path.split('/')[2];
    body.data.attributes = { ...(body.data.attributes ?? {}), ...(creates(path, method) ? FALLBACK_ATTRIBUTES[body.data.type] : {}) };
    for (const name of Object.keys(body.data.attributes)) {
      if (!Object.hasOwn(REFERENCED, name)) continue;
      const { id } = await recordIn(org, REFERENCED[name]);
      // Users are named by their integer id where the attribute is an integer (minimal made it 0).
      body.data.attributes[name] = typeof body.data.attributes[name] === 'number' ? Number(id) : id;
    }
    if (!JSON.stringify(body).includes(marker)) {
      // No required string carries the marker (every attribute optional): the first free-form one does.
      const data = resolved(resolved(schema, doc)?.properties?.data, doc);
      const properties = resolved(data?.properties?.attributes, doc)?.properties ?? {};
      const carrier = Object.entries(properties as Record<string, Json>).find(([name, p]) => p.type === 'string' && !p.enum && !p.format && !p.pattern && !Object.hasOwn(REFERENCED, name) && !Object.hasOwn(FALLBACK_ATTRIBUTES[body.data.type] ?? {}, name));
      if (carrier) body.data.attributes[carrier[0]] = marker.slice(0, carrier[1].maxLength ?? marker.length);
    }
    return body;
  };

  /** The record schema (`incident_role_task`) an operation answers with `status`, and whether a list of them. */
  const answer = (path: string, method: string, status: string): { record: string; many: boolean } | undefined => {
    const ref: string | undefined = operation(path, method)?.responses?.[status]?.content?.['application/vnd.api+json']?.schema?.$ref;
    const data = ref && doc.components.schemas[ref.split('/').pop()!]?.properties?.data;
    const record = (data?.type === 'array' ? data.items : data)?.properties?.attributes?.allOf?.[0]?.$ref;
    return record ? { record, many: data.type === 'array' } : undefined;
  };

  /**
   * The POST route that creates records of `record`: the collection's own, or one elsewhere that
   * answers the same record (a nested collection creates what its flat id routes serve).
   */
  const creatorOf = (collection: string, record: string | undefined): string | undefined =>
    routes.find((r) => r.path === collection && r.methods.includes('POST'))?.path ??
    routes.find((r) => r.methods.includes('POST') && record !== undefined && answer(r.path, 'POST', '201')?.record === record)?.path;

  // Collections the API cannot create into (the reference has no POST /v1/users): seeded directly.
  /** A seeded record's id, with whether its read shows the marker (a string: it does). */
  type Seeded = string | { id: string; carried: boolean };
  const SEEDERS: Record<string, (organizationId: string, marker: string, org: TestOrganization) => Promise<Seeded>> = {
    // Attaching answers the incident's alert list (200), not a new record: an alert of the organization attached to its walked incident.
    '/v1/incidents/:incident_id/alerts': async (_organizationId, marker, org) => {
      const alert = await api.request('POST', '/v1/alerts', { token: org.token, body: { data: { type: 'alerts', attributes: { summary: marker } } } });
      assert.equal(alert.status, 201, JSON.stringify(alert.body));
      const incident = await recordIn(org, '/v1/incidents');
      const attached = await api.request('POST', `/v1/incidents/${incident.id}/alerts`, { token: org.token, body: { data: { type: 'alerts', attributes: { alert_ids: [alert.body.data.id] } } } });
      assert.equal(attached.status, 200, JSON.stringify(attached.body));
      return String(alert.body.data.id);
    },
    '/v1/users': async (organizationId, marker) => {
      const [row] = await api.runtime.dataSource.query(
        "INSERT INTO users (organization_id, email, name, role) VALUES ($1, $2, $3, 'user') RETURNING id",
        [organizationId, `${marker}@example.test`, marker],
      );
      return String(row.id);
    },
    // Receipts are written by the inbound alert routes only; the marker stands in the resource id so a leak would show it.
    '/v1/alerts/receipts': async (organizationId, marker) => {
      const [row] = await api.runtime.dataSource.query(
        "INSERT INTO alert_receipts (id, organization_id, alert_source_id, state, resource_type, resource_id, created_at, updated_at) VALUES ($1, $2, $1, 'done', 'Alert', $3, now(), now()) RETURNING id",
        [randomUUID(), organizationId, marker],
      );
      return String(row.id);
    },
  };

  // A coverage request covers computed shifts (a schedule with someone on call) and its create answers a list: its schedule's name carries the marker.
  const coverageRequest = async (_organizationId: string, marker: string, org: TestOrganization) => {
    const me = Number((await api.request('GET', '/v1/users/me', { token: org.token })).body.data.id);
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [me], owner: me, name: marker });
    const from = Date.now() + 7 * 86_400_000;
    const attributes = { starts_at: new Date(from).toISOString(), ends_at: new Date(from + 86_400_000).toISOString() };
    const res = await api.request('POST', `/v1/schedules/${scheduleId}/shift_coverage_requests`, { token: org.token, body: { data: { type: 'shift_coverage_requests', attributes } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return String(res.body.data[0].id);
  };
  SEEDERS['/v1/shift_coverage_requests'] = coverageRequest;
  SEEDERS['/v1/schedules/:schedule_id/shift_coverage_requests'] = coverageRequest;
  // A calendar feed names its schedule by id in the body, and its attributes are ids and times only: the marker names its schedule.
  SEEDERS['/v1/calendar_feeds'] = async (_organizationId, marker, org) => {
    const me = Number((await api.request('GET', '/v1/users/me', { token: org.token })).body.data.id);
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [me], owner: me, name: marker });
    const res = await api.request('POST', '/v1/calendar_feeds', { token: org.token, body: { data: { type: 'calendar_feeds', attributes: { kind: 'schedule', schedule_id: scheduleId } } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { id: String(res.body.data.id), carried: false };
  };

  // A deprecated entity value names a property of its entity's catalog: both made in one catalog, the value carrying the marker.
  SEEDERS['/v1/catalog_entity_properties'] = SEEDERS['/v1/catalog_entities/:catalog_entity_id/properties'] = async (_organizationId, marker, org) => {
    const catalog = await make(org, '/v1/catalogs', 'catalogs', { name: `${marker} catalog` });
    const property = await make(org, `/v1/catalogs/${catalog}/properties`, 'catalog_properties', { name: `${marker} property`, kind: 'text' });
    const entity = await make(org, `/v1/catalogs/${catalog}/entities`, 'catalog_entities', { name: `${marker} entity` });
    return make(org, `/v1/catalog_entities/${entity}/properties`, 'catalog_entity_properties', { catalog_field_id: property, key: 'text', value: marker });
  };

  // An invite names its platform in the query; the incident it records carries the marker.
  SEEDERS['/v1/meeting_recordings'] = SEEDERS['/v1/incidents/:incident_id/meeting_recordings'] = async (_organizationId, marker, org) => {
    const incident = await make(org, '/v1/incidents', 'incidents', { title: marker });
    const res = await api.request('POST', `/v1/incidents/${incident}/meeting_recordings?platform=zoom`, { token: org.token });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { id: String(res.body.data.id), carried: false };
  };

  // An incident's post mortem comes with it (its id, its title: the marker) and is written by PUT.
  SEEDERS['/v1/post_mortems'] = async (_organizationId, marker, org) => {
    const incident = await make(org, '/v1/incidents', 'incidents', { title: marker });
    const res = await api.request('PUT', `/v1/post_mortems/${incident}`, { token: org.token, body: { data: { type: 'incident_post_mortems', attributes: { content: marker } } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { id: incident, carried: true };
  };

  // A grant names a dashboard and a grantee of its organization: its dashboard's name carries the marker; known by its id.
  SEEDERS['/v1/authorizations'] = async (_organizationId, marker, org) => {
    const dashboard = await make(org, '/v1/dashboards', 'dashboards', { name: marker, owner: 'team' });
    const me = (await api.request('GET', '/v1/users/me', { token: org.token })).body.data.id;
    return { id: await make(org, '/v1/authorizations', 'authorizations', { authorizable_id: dashboard, grantee_id: me, permissions: ['read'] }), carried: false };
  };
  // Checklists are made by a template's trigger: a template of one team (its name the marker), triggered; known by its id.
  SEEDERS['/v1/catalog_entity_checklists'] = async (_organizationId, marker, org) => {
    const team = await make(org, '/v1/teams', 'groups', { name: `${marker} team` });
    const template = await make(org, '/v1/catalog_checklist_templates', 'catalog_checklist_templates', { name: marker, catalog_type: 'Group', scope_type: 'Team', scope_id: team });
    const res = await api.request('POST', `/v1/catalog_checklist_templates/${template}/trigger`, { token: org.token });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return { id: String(res.body.data[0].id), carried: false };
  };

  // A group step places a step of its group's process.
  SEEDERS['/v1/retrospective_process_group_steps'] = SEEDERS['/v1/retrospective_process_groups/:retrospective_process_group_id/steps'] = async (_organizationId, marker, org) => {
    const process = await make(org, '/v1/retrospective_processes', 'retrospective_processes', { name: `${marker} process`, copy_from: 'starter_template' });
    const subStatus = await make(org, '/v1/sub_statuses', 'sub_statuses', { name: `${marker} sub-status`, parent_status: 'retrospective' });
    const group = await make(org, `/v1/retrospective_processes/${process}/groups`, 'retrospective_process_groups', { sub_status_id: subStatus });
    const step = await make(org, `/v1/retrospective_processes/${process}/retrospective_steps`, 'retrospective_steps', { title: marker });
    return { id: await make(org, `/v1/retrospective_process_groups/${group}/steps`, 'retrospective_process_group_steps', { retrospective_step_id: step }), carried: false };
  };

  // Every organization has its two configurations, never created: its first, known by its id (it holds no free text).
  SEEDERS['/v1/retrospective_configurations'] = async (_organizationId, _marker, org) => {
    const res = await api.request('GET', '/v1/retrospective_configurations', { token: org.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { id: String(res.body.data[0].id), carried: false };
  };
  // An incident's steps are copied from the process matching it when it is created: a process for a team of its own, one step carrying the marker.
  SEEDERS['/v1/incident_retrospective_steps'] = async (_organizationId, marker, org) => {
    const team = await make(org, '/v1/teams', 'groups', { name: `${marker} team` });
    const process = await make(org, '/v1/retrospective_processes', 'retrospective_processes', { name: `${marker} process`, copy_from: 'starter_template', retrospective_process_matching_criteria: { group_ids: [team] } });
    await make(org, `/v1/retrospective_processes/${process}/retrospective_steps`, 'retrospective_steps', { title: marker });
    const incident = await make(org, '/v1/incidents', 'incidents', { title: `${marker} incident`, group_ids: [team] });
    const steps = await api.request('GET', `/v1/incidents/${incident}/retrospective_steps?page[size]=100`, { token: org.token });
    return String(steps.body.data.find((s: Json) => s.attributes.title === marker).id);
  };

  // An action item condition names an action item form field.
  SEEDERS['/v1/workflow_action_item_form_field_conditions'] = SEEDERS['/v1/workflows/:workflow_id/action_item_form_field_conditions'] = async (_organizationId, marker, org) => {
    const field = await make(org, '/v1/form_fields', 'form_fields', { name: `${marker} field`, kind: 'custom', resource_type: 'action_item' });
    const workflow = (await recordIn(org, '/v1/workflows')).id;
    return { id: await make(org, `/v1/workflows/${workflow}/action_item_form_field_conditions`, 'workflow_action_item_form_field_conditions', { form_field_id: field }), carried: false };
  };

  /** Creates a record of `org` over HTTP (its answer must be a 201): its id. */
  const make = async (org: TestOrganization, path: string, type: string, attributes: Record<string, unknown>) => {
    const res = await api.request('POST', path, { token: org.token, body: { data: { type, attributes } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return String(res.body.data.id);
  };
  // A routing rule names its source and its destination's record, a heartbeat its target: the organization's own, made here; the name carries the marker.
  SEEDERS['/v1/alert_routing_rules'] = async (_organizationId, marker, org) => {
    const source = await make(org, '/v1/alert_sources', 'alert_sources', { name: `${marker} source`, source_type: 'generic_webhook' });
    const team = await make(org, '/v1/teams', 'groups', { name: `${marker} team` });
    return { id: await make(org, '/v1/alert_routing_rules', 'alert_routing_rules', { name: marker, alerts_source_id: source, destination: { target_id: team } }), carried: true };
  };
  // A deferred rule update of the walked route (docs/alert-routing.md), made with the organization's asynchronous updates on; it
  // holds no free text, so it is known by its request id (a 404 names the id asked for: the marker would read as a leak).
  SEEDERS['/v1/alert_routes/:id/rule_updates'] = async (_organizationId, _marker, org) => {
    const requestId = randomUUID();
    const route = (await recordIn(org, '/v1/alert_routes')).id;
    const settings = (asynchronous: boolean) =>
      api.request('PATCH', '/v1/alert_routing_settings', { token: org.token, body: { data: { type: 'alert_routing_settings', attributes: { asynchronous_rule_updates: asynchronous } } } });
    assert.equal((await settings(true)).status, 200);
    const res = await api.request('PUT', `/v1/alert_routes/${route}`, { token: org.token, body: { data: { type: 'alert_routes', attributes: { rules: [] } } }, headers: { 'x-request-id': requestId } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await settings(false)).status, 200);
    // Saved after the answer by the running updater: read once it is, so the walk sees it settled.
    const status = () => api.request('GET', `/v1/alert_routes/${route}/rule_updates/${requestId}`, { token: org.token });
    assert.equal((await eventually(status, (res) => res.body.data?.attributes?.status === 'completed')).body.data.attributes.status, 'completed');
    return { id: requestId, carried: false };
  };
  // The same kind of record through the hosted API's route: an update saved in the request records its status under the
  // request_id attribute (docs/alert-routing.md); a plain object, known by its request id as above.
  SEEDERS['/v1/alert_routes/:id/async_rule_creation_status'] = async (_organizationId, _marker, org) => {
    const requestId = randomUUID();
    const route = (await recordIn(org, '/v1/alert_routes')).id;
    const res = await api.request('PUT', `/v1/alert_routes/${route}`, { token: org.token, body: { data: { type: 'alert_routes', attributes: { rules: [], request_id: requestId } } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { id: requestId, carried: false };
  };
  // A secret's name is an identifier (no '-'), its value never shown: known by its first read.
  SEEDERS['/v1/secrets'] = async (_organizationId, marker, org) => ({ id: await make(org, '/v1/secrets', 'secrets', { name: marker.replaceAll('-', '_'), secret: marker }), carried: false });
  // Deliveries are written by the webhook dispatcher alone: one to the organization's endpoint, its body carrying the marker.
  SEEDERS['/v1/webhooks/deliveries'] = async (organizationId, marker, org) => seedDelivery(api, organizationId, (await recordIn(org, '/v1/webhooks/endpoints')).id, { payload: JSON.stringify({ marker }) });
  SEEDERS['/v1/heartbeats'] = async (_organizationId, marker, org) => {
    const team = await make(org, '/v1/teams', 'groups', { name: `${marker} team` });
    const attributes = { name: marker, alert_summary: marker, interval: 5, interval_unit: 'minutes', notification_target_type: 'Group', notification_target_id: team };
    return { id: await make(org, '/v1/heartbeats', 'heartbeats', attributes), carried: true };
  };
  // Statuses are the organization's built-in set, read-only: its first one, known by its id (its name is not the marker).
  SEEDERS['/v1/statuses'] = async (_organizationId, _marker, org) => {
    const res = await api.request('GET', '/v1/statuses', { token: org.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { id: String(res.body.data[0].id), carried: false };
  };
  // A team has one grant per page: each grant names a team of its own, made here (the grant shows ids only).
  SEEDERS['/v1/status-pages/:status_page_id/teams'] = async (_organizationId, marker, org) => {
    const team = await make(org, '/v1/teams', 'groups', { name: `${marker} team` });
    const page = (await recordIn(org, '/v1/status-pages')).id;
    return { id: await make(org, `/v1/status-pages/${page}/teams`, 'status_page_groups', { group_id: team }), carried: false };
  };

  const records = new Map<string, { org: TestOrganization; record: MadeRecord }>();

  /** `path` with every id parameter filled by a record of `org` in the collection before it, or by `at(index)` when it gives one. */
  const fill = async (org: TestOrganization, path: string, at: (index: number) => string | undefined = () => undefined): Promise<string> => {
    let filled = path;
    for (const [index, m] of [...path.matchAll(ID_PARAMS)].entries()) {
      filled = filled.replace(`:${m[1]}`, at(index) ?? (await recordIn(org, path.slice(0, m.index))).id);
    }
    return filled;
  };

  /** Creates through `creator` (its parents are `org`'s own records); the new record's id, and whether its body carried `marker`. */
  const createThrough = async (org: TestOrganization, creator: string, marker: string): Promise<{ id: string; carried: boolean }> => {
    const target = await fill(org, creator);
    const body = await bodyFor(org, creator, 'POST', marker);
    const created = await api.request('POST', target, { token: org.token, body });
    assert.equal(created.status, 201, `POST ${target}: ${JSON.stringify(created.body)}`);
    return { id: created.body.data.id, carried: JSON.stringify(body).includes(marker) };
  };

  /** A record of `org` in `collection` (a route path up to an id parameter), made once and read back. */
  async function recordIn(org: TestOrganization, collection: string): Promise<MadeRecord> {
    const key = `${org.organizationId} ${collection}`;
    const known = records.get(key);
    if (known) return known.record;
    const marker = `xtenant-${randomUUID().slice(0, 8)}`;
    let made: { id: string; carried: boolean };
    const seed = SEEDERS[collection];
    if (seed) {
      const seeded = await seed(org.organizationId, marker, org);
      made = typeof seeded === 'string' ? { id: seeded, carried: true } : seeded;
    }
    else {
      const item = routes.find((r) => r.methods.includes('GET') && ENDS_IN_ID.test(r.path) && r.path.slice(0, r.path.search(ENDS_IN_ID)) === collection);
      const creator = creatorOf(collection, item && answer(item.path, 'GET', '200')?.record);
      assert.ok(creator, `no route creates into ${collection}: add a seeder`);
      made = await createThrough(org, creator, marker);
    }
    const read = `${await fill(org, collection)}/${made.id}`;
    const own = await api.request('GET', read, { token: org.token });
    assert.equal(own.status, 200, `the organization reads its own ${read}`);
    if (made.carried) assert.ok(JSON.stringify(own.body).includes(marker), `the marker is in ${read} (so its absence below means something): ${JSON.stringify(own.body)}`);
    // A receipt is a plain object (reference `receipt`), not a JSON:API document.
    const record = { id: made.id, marker, shown: made.carried, read, attributes: JSON.stringify(own.body.data?.attributes ?? own.body) };
    records.set(key, { org, record });
    return record;
  }

  test('the router lists id routes under /v1 and every one of them is walked', async () => {
    const idRoutes = routes.filter((r) => r.path.startsWith('/v1/') && ID_PARAM.test(r.path));
    /** A public route authenticated by its own credentials (`security: []`); HEAD is Fastify's twin of the declared GET. */
    const ownCredentials = (path: string, method: string) => {
      const declared = operation(path, method === 'HEAD' ? 'GET' : method);
      return Array.isArray(declared?.security) && declared.security.length === 0;
    };
    assert.ok(idRoutes.length >= 5, `expected id routes in:\n${JSON.stringify(routes, null, 1)}`);
    const exercised = new Set<string>();
    const readableByA: string[] = [];

    for (const route of idRoutes) {
      // A route of its own credentials (a heartbeat's ping URL) is not read with A's bearer token.
      if (route.methods.includes('GET') && !ownCredentials(route.path, 'GET')) readableByA.push(await fill(a, route.path));
      // Each id parameter in turn names org A's record, the others org B's own: A's parent, or A's
      // record under B's parent.
      for (const [index, m] of [...route.path.matchAll(ID_PARAMS)].entries()) {
        const { id, marker } = await recordIn(a, route.path.slice(0, m.index));
        const concrete = await fill(b, route.path, (i) => (i === index ? id : undefined));
        const missing = await fill(b, route.path, (i) => (i === index ? randomUUID() : undefined));
        for (const method of route.methods) {
          const label = `${method} ${route.path} with org B's token and org A's ${m[1]}`;
          const body = await bodyFor(b, route.path, method, `b-${marker}`);
          const res = await api.request(method, concrete, { token: b.token, body });
          // A public route authenticated by its own credentials (the inbound alert route, by the
          // source's secret) answers 401 to a stranger, whether the id exists or not.
          const refusals = ownCredentials(route.path, method) ? [401, 404, 403] : [404, 403];
          assert.ok(refusals.includes(res.status), `${label}: expected 404, got ${res.status} ${JSON.stringify(res.body)}`);
          assertRevealsNothing(res, id, marker, label);
          // Exactly like an id that does not exist at all.
          const ghost = await api.request(method, missing, { token: b.token, body });
          assert.equal(res.status, ghost.status, `${label}: answers like a missing id`);
          if (method !== 'HEAD') {
            const codes = (r: TestResponse) => (r.body?.errors ?? []).map((e: Json) => `${e.status}/${e.code}/${e.title}`);
            assert.deepEqual(codes(res), codes(ghost), `${label}: same errors as a missing id`);
          }
          exercised.add(`${method} ${route.path}`);
        }
      }
    }

    // Nothing of A's records changed through B's PUT/PATCH/DELETE/POST attempts, and nothing was
    // created under A's parents.
    for (const { org, record } of records.values()) {
      if (org !== a) continue;
      const after = await api.request('GET', record.read, { token: a.token });
      assert.equal(after.status, 200, `${record.read} still exists for org A`);
      if (record.shown) assert.ok(JSON.stringify(after.body).includes(record.marker), `${record.read} is unchanged`);
      else assert.equal(JSON.stringify(after.body.data?.attributes ?? after.body), record.attributes, `${record.read} is unchanged`);
    }
    for (const path of readableByA) {
      const after = await api.request('GET', path, { token: a.token });
      assert.equal(after.status, 200, `org A reads ${path}`);
      assert.ok(!JSON.stringify(after.body).includes('b-xtenant-'), `${path} was not written by org B`);
    }

    const expected = idRoutes.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`));
    const missed = expected.filter((e) => !exercised.has(e));
    assert.deepEqual(missed, [], 'every id route and method from the router is exercised');
    // The OpenAPI document and the router agree, so no documented id route escapes the walk.
    const documented = Object.keys(doc.paths).filter((p) => /\{[A-Za-z_]*id\}/.test(p));
    assert.deepEqual(documented.sort(), idRoutes.map((r) => openApiPath(r.path)).sort(), 'router and OpenAPI list the same id routes');
  });

  test('a list of B never contains A\'s records', async () => {
    // Every list whose records the API can create, nested ones under B's own parents.
    const lists = routes
      .filter((r) => r.path.startsWith('/v1/') && r.methods.includes('GET') && !ENDS_IN_ID.test(r.path))
      .map((r) => {
        const listed = answer(r.path, 'GET', '200');
        return { path: r.path, creator: listed?.many ? creatorOf(r.path, listed.record) : undefined };
      })
      .filter((l): l is { path: string; creator: string } => l.creator !== undefined);
    assert.ok(lists.length >= 4);
    assert.ok(lists.some((l) => ID_PARAM.test(l.path)), 'nested lists are walked too');
    for (const { path, creator } of lists) {
      const marker = `xlist-${randomUUID().slice(0, 8)}`;
      const seed = SEEDERS[path];
      const seeded = seed ? await seed(a.organizationId, marker, a) : await createThrough(a, creator, marker);
      const id = typeof seeded === 'string' ? seeded : seeded.id;
      const list = await api.request('GET', await fill(b, path), { token: b.token });
      assert.equal(list.status, 200, path);
      const text = JSON.stringify(list.body);
      assert.ok(!text.includes(id) && !text.includes(marker), `GET ${path} as org B shows org A's record`);
    }
  });

  // The walk takes its ids from the path; the acknowledge link (public, `security: []`) carries its
  // ids in a signed token instead: the organization, the alert and the notification. The token is
  // the credential, so it is walked here: claims naming organization A never reach B's alert, and a
  // token whose organization was changed does not verify.
  test("an acknowledge link signed for organization A never acknowledges B's alert nor spends B's link", async () => {
    const secret = api.runtime.config.acknowledgeLinkSecret;
    const paged = async (org: TestOrganization, marker: string) => {
      const me = Number((await api.request('GET', '/v1/users/me', { token: org.token })).body.data.id);
      const res = await api.request('POST', '/v1/alerts', { token: org.token, body: { data: { type: 'alerts', attributes: { summary: marker, notification_target_type: 'User', notification_target_id: String(me) } } } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      // A notification of the alert as the engine writes one (run 99: apart from the engine's own rows).
      const [{ id }] = await api.runtime.dataSource.query(
        `INSERT INTO alert_notifications (id, organization_id, alert_id, run, level, repeat, user_id, channel, address, target_type, target_id, status, due_at, sent_at, created_at)
         VALUES (gen_random_uuid(), $1, $2, 99, 1, 0, $3::int, 'email', 'owner@example.test', 'User', $3::text, 'sent', now(), now(), now()) RETURNING id`,
        [org.organizationId, res.body.data.id, me],
      );
      return { org, alert: String(res.body.data.id), notification: String(id), user: me, marker };
    };
    const [ofA, ofB] = [await paged(a, `xack-${randomUUID().slice(0, 8)}`), await paged(b, `xack-${randomUUID().slice(0, 8)}`)];
    const acknowledge = (claims: { o: string; a: string; n: string; u: number | null }) => api.request('GET', `/v1/alert_acknowledgements?token=${ackToken(secret, claims)}`);
    const codes = (r: TestResponse) => (r.body?.errors ?? []).map((e: Json) => `${e.status}/${e.code}/${e.title}`);
    const attempts = [
      // A's organization and notification, B's alert: like an alert that does not exist.
      { label: "A's link naming B's alert", claims: { o: a.organizationId, a: ofB.alert, n: ofA.notification, u: ofA.user }, ghost: { o: a.organizationId, a: randomUUID(), n: ofA.notification, u: ofA.user } },
      // B's notification under A's organization: like a notification that does not exist.
      { label: "A's link naming B's alert and notification", claims: { o: a.organizationId, a: ofB.alert, n: ofB.notification, u: ofB.user }, ghost: { o: a.organizationId, a: ofA.alert, n: randomUUID(), u: ofA.user } },
      { label: "A's link naming B's notification", claims: { o: a.organizationId, a: ofA.alert, n: ofB.notification, u: ofA.user }, ghost: { o: a.organizationId, a: ofA.alert, n: randomUUID(), u: ofA.user } },
    ];
    for (const { label, claims, ghost } of attempts) {
      const res = await acknowledge(claims);
      assert.ok([404, 410].includes(res.status), `${label}: ${res.status} ${JSON.stringify(res.body)}`);
      const missing = await acknowledge(ghost);
      assert.deepEqual([res.status, codes(res)], [missing.status, codes(missing)], `${label}: answers like a missing record`);
      assertRevealsNothing(res, ofB.alert, ofB.marker, label);
    }
    // A's genuine token with its organization changed to B's (A's signature kept) does not verify.
    const [payload, mac] = ackToken(secret, { o: a.organizationId, a: ofA.alert, n: ofA.notification, u: ofA.user }).split('.');
    const moved = Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace(a.organizationId, b.organizationId)).toString('base64url');
    assert.equal((await api.request('GET', `/v1/alert_acknowledgements?token=${moved}.${mac}`)).status, 404, 'a re-addressed token does not verify');

    for (const { org, alert } of [ofB, ofA]) {
      const read = await api.request('GET', `/v1/alerts/${alert}`, { token: org.token });
      assert.equal(read.body.data.attributes.status, 'triggered', `${alert} was not acknowledged by a refused link`);
    }
    const unspent = await api.runtime.dataSource.query('SELECT id FROM alert_notifications WHERE id = ANY($1::uuid[]) AND link_used_at IS NULL', [[ofA.notification, ofB.notification]]);
    assert.equal(unspent.length, 2, 'no refused attempt spent a link (its transaction rolled back)');
    // The walk's tokens are the engine's: A's own link acknowledges A's alert.
    const own = await acknowledge({ o: a.organizationId, a: ofA.alert, n: ofA.notification, u: ofA.user });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.data.attributes.status, 'acknowledged');
  });
});

/**
 * A one-click acknowledge token as the engine signs it (libs/alerting/src/paging/channels/acknowledge-link.ts):
 * base64url(JSON claims) '.' base64url(HMAC-SHA256(secret, context || JSON)). Written out here so the
 * walk can sign claims the engine never would (one organization's with another's alert).
 */
function ackToken(secret: string, claims: { o: string; a: string; n: string; u: number | null }): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, x: Date.now() + 3_600_000 }), 'utf8');
  const mac = createHmac('sha256', secret).update('taproot.acknowledge.v1\n').update(payload).digest();
  return `${payload.toString('base64url')}.${mac.toString('base64url')}`;
}

function assertRevealsNothing(res: TestResponse, id: string, marker: string, label: string): void {
  if (res.body === undefined || res.body === '') return;
  assert.ok(!JSON.stringify(res.body).includes(marker), `${label}: the body reveals A's record's name`);
  // The id may only be echoed in an error's detail ("... not found").
  const scrubbed = structuredClone(res.body);
  for (const error of scrubbed?.errors ?? []) if (typeof error.detail === 'string') error.detail = error.detail.replaceAll(id, '<id>');
  // As a whole token (ids are uuids or integers): a small integer id (a user's `4`) is also a digit of the status "404".
  const token = new RegExp(`(?<![A-Za-z0-9_-])${id}(?![A-Za-z0-9_-])`);
  assert.ok(!token.test(JSON.stringify(scrubbed)), `${label}: the body reveals A's id outside an error detail: ${JSON.stringify(res.body)}`);
  assert.ok(!('data' in (res.body ?? {})), `${label}: an error carries no data`);
}
