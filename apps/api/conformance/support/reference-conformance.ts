import { beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { TestApi, TestOrganization, TestResponse } from '../../src/testing';
import { useApiWorld } from '../../test/support/api-world';
import { unique as named } from '../../test/support/json-api';
import { newStatusPage } from '../../test/support/status-pages';
import { newWebhookEndpoint, seedDelivery } from '../../test/support/webhook-deliveries';
import {
  REFERENCE_OPENAPI_PATH,
  referenceValidator,
  sampleFromSchema,
  validateAgainstReference,
  type JsonSchema,
  type SampleOptions,
} from '../../test/support/openapi-ajv';

/**
 * The machinery of the reference conformance suites (`*.conformance-spec.ts`), one
 * `describeReferenceConformance` per resource.
 *
 * Taproot's real responses against the REFERENCE document (`<repo>/../shared/reference/
 * openapi-v1.json`, read in place), and the reference's request documents against Taproot:
 * a document generated from `new_<singular>` / `update_<singular>` must be accepted, so Taproot
 * is never stricter than the reference on valid input. Request documents are generated from the
 * reference schemas, so an attribute added there shows up here.
 *
 * `describeReferenceConformance` takes one resource; each suite file lists its resources.
 */

export interface ReferenceResource {
  /** JSON:API type, e.g. `services`. */
  type: string;
  /** Collection path, e.g. `/v1/services`. */
  path: string;
  /** Reference schema stem: `new_<singular>`, `update_<singular>`, `<singular>`, `<singular>_response`, `<singular>_list`. */
  singular: string;
  /** Values the generator cannot know (realistic colours, emails); `undefined` to let it choose. */
  pick?: (attribute: string, schema: JsonSchema, variant: 'create' | 'update', references: Attributes) => unknown;
  /** Whether Taproot lists this collection by cursor as well (`page[after]`). */
  cursor?: boolean;
  /**
   * A collection under a parent record (`path` then serves the records only): the parent's
   * reference schema stem and path, the nested collection with its `{parameter}`, and the
   * attribute naming the parent. Each organization gets a parent made from a reference-valid
   * `new_<parent singular>`, or by `make` where such a document cannot be stored (an incident's
   * relationship ids must name records; an event lives under an incident); generated documents
   * name it in that attribute.
   */
  parent?: { singular: string; path: string; collection: string; attribute: string; make?: (api: TestApi, org: TestOrganization) => Promise<string> };
  /**
   * Attributes that must name records of the organization (`sub_status_id`, a user id), made
   * once per organization: generated documents take these values.
   */
  references?: (api: TestApi, org: TestOrganization) => Promise<Attributes>;
  /**
   * Attributes of Taproot's answer that the reference's response schema cannot validate, with
   * why: left out of the answered records before validation. `null`: only a null value (a
   * `nullable` beside an `allOf`, which OpenAPI 3.0.3 does not let null satisfy); `always`:
   * attributes a closed (`additionalProperties: false`) reference schema does not list.
   */
  validationGaps?: Record<string, { when: 'null' | 'always'; why: string }>;
  /**
   * Attributes the server fills when a write sends null (Taproot assigns the next `position` on
   * create and keeps the stored one on update, so lists and keyset pages never see null).
   */
  assignedWhenNull?: string[];
  /**
   * Reference-valid edge values (see `edgeProbes`) Taproot refuses on purpose, by probe label,
   * with the reason. Anything refused that is not listed here fails the suite.
   */
  knownStricter?: Record<string, string>;
  /** Edge values Taproot may either store or refuse with a 422 (both are acceptable fixes). */
  mayRefuse?: Record<string, string>;
  /**
   * Request enum values the reference's own response schema omits (`attribute=value` -> why):
   * accepted and echoed, but the response cannot validate against the reference there.
   */
  responseEnumGaps?: Record<string, string>;
  /** The reference's list schema when it is not `<singular>_list` (`on_call_shadows_list`). */
  listSchema?: string;
  /** A list filter leaving out the records every organization starts with (built-in alert fields), for the list test's counts. */
  createdOnly?: string;
  /** The organization's `references` and parent, once placed (`placeIn`). */
  references_?: Attributes;
  /**
   * Attributes that go with an attribute's value in every generated document (a rotation type
   * takes its own `schedule_rotationable_attributes`; the reference's `oneOf` cannot say which),
   * given the organization's `references`.
   */
  companions?: (attribute: string, value: unknown, references: Attributes) => Attributes | undefined;
  /** Reference enum values Taproot refuses on purpose (a 422 errors_list), with why; undefined for the accepted ones. */
  refusedEnumValue?: (attribute: string, value: unknown) => string | undefined;
  /** Attributes the reference's update takes but that cannot change after creation: ignored on update, so not echoed. */
  createOnly?: string[];
  /** The update's method when the reference has no PUT (`PATCH`). */
  updateVerb?: 'PUT' | 'PATCH';
  /** Attributes the reference's requests take that the spec makes output-only, with why: a sent value is ignored, so not echoed. */
  outputOnly?: Record<string, string>;
  /** Attributes the reference's request takes as the integer 1 or 0 and its response declares boolean: a sent 1 or 0 is answered true or false. */
  integerBooleans?: string[];
  /** Attributes answered in another spelling than sent, as the reference answers them: how a sent value is answered. */
  answeredAs?: Record<string, (sent: unknown) => unknown>;
  /** The reference's update document when it is not `update_<singular>` (a catalog property's is `update_catalog_field`). */
  updateSchema?: string;
  /** Members the answers add to the objects of an attribute, at any depth (the spec's output-only `conditions[].values`, the ids of a route's rule graph): left out before comparing with what was sent. */
  addedMembers?: Record<string, string[]>;
}

export type Attributes = Record<string, unknown>;

const ATTRIBUTE = /^\/data\/attributes\/([^/]+)$/;

/** A reference-valid request document for `schemaName`, with a unique name. */
function referenceDocument(r: ReferenceResource, schemaName: string, variant: 'create' | 'update', options: SampleOptions = {}): { data: { type: string; id?: string; attributes: Attributes } } {
  const ref = referenceValidator();
  const unique = randomUUID().slice(0, 8);
  const doc = sampleFromSchema(ref, ref.schema(schemaName), {
    ...options,
    pick: (pointer, schema) => {
      const m = ATTRIBUTE.exec(pointer);
      if (!m) return undefined;
      // A resource whose names must be identifiers (secrets) picks its own.
      if (m[1] === 'name') return r.pick?.('name', schema, variant, r.references_ ?? {}) ?? `${r.singular} ${variant} ${unique}`;
      if (options.nulls && schema.nullable === true) return undefined;
      const picked = r.pick?.(m[1], schema, variant, r.references_ ?? {});
      if (picked !== undefined) return picked;
      // Update values differ from the create ones, so an update that did nothing is seen.
      if (variant === 'update' && schema.type === 'boolean') return false;
      if (variant === 'update' && schema.type === 'string' && !schema.enum && !schema.format) return `updated ${m[1]}`;
      return undefined;
    },
  }) as { data: { type: string; attributes: Attributes } };
  withCompanions(r, doc.data.attributes);
  ref.assertValid(schemaName, doc, 'the generated request document');
  return doc;
}

/** `attributes` with what goes with each of their values (`ReferenceResource.companions`). */
function withCompanions(r: ReferenceResource, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) Object.assign(attributes, r.companions?.(name, value, r.references_ ?? {}));
}

/** Attributes the reference's output schema (`<singular>`) declares. */
const outputAttributes = (r: ReferenceResource) => Object.keys(referenceValidator().resolve(referenceValidator().schema(r.singular)).properties as object);

/** Where an organization creates and lists records, and the resource as its documents are generated there. */
interface Place {
  collection: string;
  resource: ReferenceResource;
}

/** A new parent of the organization's, from a reference-valid `new_<parent singular>`: its id. */
async function parentFromReference(api: TestApi, org: TestOrganization, parent: NonNullable<ReferenceResource['parent']>): Promise<string> {
  const doc = referenceDocument({ type: parent.path.split('/').pop()!, path: parent.path, singular: parent.singular }, `new_${parent.singular}`, 'create');
  const res = await api.request('POST', parent.path, { token: org.token, body: doc });
  assertStatus(res, 201, `POST ${parent.path}, the parent`);
  return res.body.data.id;
}

/**
 * `r.path`, or the nested collection under a new parent of the organization's; the documents
 * then name that parent and the organization's `references`.
 */
async function placeIn(api: TestApi, org: TestOrganization, r: ReferenceResource): Promise<Place> {
  const fixed: Attributes = { ...(await r.references?.(api, org)) };
  let collection = r.path;
  if (r.parent) {
    const id = await (r.parent.make ?? ((a, o) => parentFromReference(a, o, r.parent!)))(api, org);
    fixed[r.parent.attribute] = id;
    collection = r.parent.collection.replace(/\{[^}]+\}/, id);
  }
  return { collection, resource: { ...r, references_: fixed, pick: (attribute, schema, variant) => (Object.hasOwn(fixed, attribute) ? fixed[attribute] : r.pick?.(attribute, schema, variant, fixed)) } };
}

/** A document of `r`'s without the attributes the reference cannot validate (`validationGaps`). */
function withoutGaps(r: ReferenceResource, body: unknown): unknown {
  const gaps = Object.entries(r.validationGaps ?? {});
  if (gaps.length === 0) return body;
  const copy = structuredClone(body) as { data?: { attributes?: Attributes } | { attributes?: Attributes }[] };
  for (const { attributes } of [copy.data ?? []].flat()) {
    for (const [name, { when }] of gaps) if (attributes && name in attributes && (when === 'always' || attributes[name] === null)) delete attributes[name];
  }
  return copy;
}

/** Request attributes of a reference request schema (`new_service`, ...) with their schemas. */
function requestAttributesSchema(schemaName: string): JsonSchema {
  const ref = referenceValidator();
  const data = ref.resolve((ref.schema(schemaName).properties as Record<string, JsonSchema>).data);
  return ref.resolve((data.properties as Record<string, JsonSchema>).attributes);
}

function requestAttributes(schemaName: string): Record<string, JsonSchema> {
  return requestAttributesSchema(schemaName).properties as Record<string, JsonSchema>;
}

interface EdgeProbe {
  label: string;
  attribute: string;
  value: unknown;
}

export const INT4_OVERFLOW = 2 ** 31;

/**
 * Values the reference's request schema accepts at the edges of its (few) constraints, for each
 * top-level attribute: empty and very long strings, negative and very large integers (the
 * reference's `integer` has no bounds), empty arrays, and members the reference does not name
 * inside its open (no `additionalProperties: false`) nested objects.
 */
function edgeProbes(schemaName: string): EdgeProbe[] {
  const probes: EdgeProbe[] = [];
  const add = (attribute: string, value: unknown, shown: string) => probes.push({ label: `${attribute}=${shown}`, attribute, value });
  for (const [attribute, raw] of Object.entries(requestAttributes(schemaName))) {
    const schema = referenceValidator().resolve(raw);
    if (Array.isArray(schema.enum)) continue;
    if (schema.type === 'string' && !schema.format) {
      add(attribute, '', '""');
      // As long as the reference allows: 10,000 characters, or its maxLength.
      const longest = typeof schema.maxLength === 'number' ? schema.maxLength : 10_000;
      add(attribute, 'x'.repeat(longest), `<${longest} chars>`);
    } else if (schema.type === 'integer') {
      add(attribute, -1, '-1');
      add(attribute, INT4_OVERFLOW, String(INT4_OVERFLOW));
      add(attribute, Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER));
    } else if (schema.type === 'object' && schema.additionalProperties !== false && !schema.oneOf) {
      // An open object: members the reference does not name are valid.
      add(attribute, { ...(sampleFromSchema(referenceValidator(), schema) as object), extra_member: 'x' }, '{...,extra_member}');
    } else if (schema.type === 'array') {
      add(attribute, [], '[]');
      const items = referenceValidator().resolve(schema.items ?? {});
      if (items.type === 'integer') {
        add(attribute, [-1], '[-1]');
        add(attribute, [INT4_OVERFLOW], `[${INT4_OVERFLOW}]`);
      } else if (items.type === 'object' && items.additionalProperties !== false) {
        add(attribute, [{ ...(sampleFromSchema(referenceValidator(), items) as object), extra_member: 'x' }], '[{...,extra_member}]');
      }
    }
  }
  return probes;
}

export function assertStatus(res: TestResponse, expected: number, what: string): void {
  assert.equal(res.status, expected, `${what}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/** JSON with object keys sorted: stored JSON objects need not keep the sent key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** An answered attribute without the members the answers add to its objects, at any depth (`addedMembers`). */
function withoutAdded(r: ReferenceResource, name: string, value: unknown): unknown {
  const added = r.addedMembers?.[name];
  if (!added) return value;
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !added.includes(k)).map(([k, x]) => [k, strip(x)])) : v;
  return strip(value);
}

/** A sent value as the answer carries it: 1 and 0 of an `integerBooleans` attribute are true and false. */
const answeredAs = (r: ReferenceResource, name: string, value: unknown) =>
  r.answeredAs?.[name] ? r.answeredAs[name](value) : r.integerBooleans?.includes(name) && (value === 1 || value === 0) ? value === 1 : value;

/** Every attribute sent that the reference's output declares comes back as sent. */
export function assertEchoed(r: ReferenceResource, sent: Attributes, got: Attributes, what: string): void {
  const declared = new Set(outputAttributes(r));
  const differ = Object.keys(sent)
    .filter((name) => declared.has(name) && !Object.hasOwn(r.outputOnly ?? {}, name))
    .filter((name) => !(sent[name] === null && r.assignedWhenNull?.includes(name) && got[name] !== null))
    .filter((name) => canonical(withoutAdded(r, name, got[name])) !== canonical(answeredAs(r, name, sent[name])))
    .map((name) => `${name}: sent ${JSON.stringify(sent[name])}, got ${JSON.stringify(got[name])}`);
  assert.deepEqual(differ, [], `${what}: attributes not stored as sent`);
}

export function describeReferenceConformance(r: ReferenceResource): void {
  const updateName = r.updateSchema ?? `update_${r.singular}`;
  describe(`${r.type} conform to the reference`, () => {
    const w = useApiWorld();
    let place: Place;
    before(async () => {
      place = await placeIn(w.api, w.org, r);
    });

    const s = r.singular;
    /** Validates one of this resource's documents against the reference, gaps left out. */
    const conforms = (schemaName: string, body: unknown, what: string) => validateAgainstReference(schemaName, withoutGaps(r, body), what);
    /** A reference-valid request document of this organization's. */
    const documentOf = (schemaName: string, variant: 'create' | 'update', options?: SampleOptions) => referenceDocument(place.resource, schemaName, variant, options);
    const item = (id: string) => `${r.path}/${encodeURIComponent(id)}`;
    const NO_TOKEN = '';
    const send = (method: string, path: string, body?: unknown, token: string = w.org.token) => w.api.request(method, path, { token: token || undefined, body });

    const create = async (options: SampleOptions = {}) => {
      const doc = documentOf(`new_${s}`, 'create', options);
      const res = await send('POST', place.collection, doc);
      assertStatus(res, 201, `POST ${place.collection} with a reference-valid new_${s} ${JSON.stringify(doc)}`);
      conforms(`${s}_response`, res.body, `POST ${r.path} 201`);
      return { doc, res };
    };

    test(`a new_${s} document with every reference attribute filled is accepted (201) and answers ${s}_response`, async () => {
      const { doc, res } = await create();
      assert.deepEqual(Object.keys(doc.data.attributes).sort(), Object.keys(requestAttributes(`new_${s}`)).sort());
      assert.equal(res.body.data.type, r.type);
      assertEchoed(r, doc.data.attributes, res.body.data.attributes, `POST ${r.path}`);
      const got = await send('GET', item(res.body.data.id));
      assertStatus(got, 200, 'GET by id');
      conforms(`${s}_response`, got.body, `GET ${r.path}/{id} 200`);
      assertEchoed(r, doc.data.attributes, got.body.data.attributes, `GET ${r.path}/{id}`);
      if (!outputAttributes(r).includes('slug')) return;
      const bySlug = await send('GET', item(got.body.data.attributes.slug));
      assertStatus(bySlug, 200, 'GET by slug');
      conforms(`${s}_response`, bySlug.body, `GET ${r.path}/{slug} 200`);
    });

    test(`a new_${s} document with every nullable attribute null is accepted (201)`, async () => {
      const { doc, res } = await create({ nulls: true });
      assertEchoed(r, doc.data.attributes, res.body.data.attributes, `POST ${r.path}`);
    });

    test(`a new_${s} document with only the required attributes is accepted (201)`, async () => {
      const { doc } = await create({ requiredOnly: true });
      const required = (requestAttributesSchema(`new_${s}`).required as string[] | undefined) ?? [];
      assert.ok(required.length > 0, `new_${s} requires no attribute`);
      assert.deepEqual(Object.keys(doc.data.attributes).sort(), [...required].sort());
    });

    test('every enum value the reference lists for an attribute is accepted', async () => {
      const enums = Object.entries(requestAttributes(`new_${s}`)).filter(([, schema]) => Array.isArray(schema.enum));
      for (const [name, schema] of enums) {
        const values = [...(schema.enum as unknown[]), ...(schema.nullable === true ? [null] : [])];
        for (const value of values) {
          const doc = documentOf(`new_${s}`, 'create', { requiredOnly: true });
          doc.data.attributes[name] = value;
          withCompanions(place.resource, doc.data.attributes);
          const res = await send('POST', place.collection, doc);
          if (r.refusedEnumValue?.(name, value)) {
            assertStatus(res, 422, `POST ${place.collection} with ${name}=${JSON.stringify(value)} (${r.refusedEnumValue(name, value)})`);
            conforms('errors_list', res.body, `POST ${r.path} 422`);
            continue;
          }
          assertStatus(res, 201, `POST ${place.collection} with ${name}=${JSON.stringify(value)}`);
          if (!Object.hasOwn(r.responseEnumGaps ?? {}, `${name}=${String(value)}`)) conforms(`${s}_response`, res.body, `POST ${r.path} 201`);
          const assigned = value === null && r.assignedWhenNull?.includes(name);
          if (name in res.body.data.attributes && !assigned && !Object.hasOwn(r.outputOnly ?? {}, name)) assert.deepEqual(res.body.data.attributes[name], answeredAs(r, name, value), name);
        }
      }
    });

    test(`an ${updateName} document with every reference attribute (and data.id) is accepted (200) and answers ${s}_response`, async () => {
      const { res: created } = await create();
      const id = created.body.data.id;
      const doc = documentOf(updateName, 'update', { enumIndex: 1 });
      doc.data.id = id;
      const res = await send(r.updateVerb ?? 'PUT', item(id), doc);
      assertStatus(res, 200, `PUT ${r.path}/{id} with a reference-valid ${updateName}`);
      conforms(`${s}_response`, res.body, `PUT ${r.path}/{id} 200`);
      const changed = Object.fromEntries(Object.entries(doc.data.attributes).filter(([name]) => !r.createOnly?.includes(name)));
      assertEchoed(r, changed, res.body.data.attributes, `PUT ${r.path}/{id}`);
      const got = await send('GET', item(id));
      assertEchoed(r, changed, got.body.data.attributes, `GET ${r.path}/{id} after PUT`);
    });

    test(`an ${updateName} document with every nullable attribute null, or with no attribute, is accepted (200)`, async () => {
      const { res: created } = await create();
      const id = created.body.data.id;
      const nulls = documentOf(updateName, 'update', { nulls: true });
      const res = await send(r.updateVerb ?? 'PUT', item(id), nulls);
      assertStatus(res, 200, `PUT ${r.path}/{id} with nulls`);
      conforms(`${s}_response`, res.body, `PUT ${r.path}/{id} 200`);
      assertEchoed(r, nulls.data.attributes, res.body.data.attributes, `PUT ${r.path}/{id}`);
      const empty = { data: { type: r.type, attributes: {} } };
      // Only where the reference's update requires nothing (update_incident_event_service requires the status).
      if (referenceValidator().errors(updateName, empty).length > 0) return;
      const unchanged = await send(r.updateVerb ?? 'PUT', item(id), empty);
      assertStatus(unchanged, 200, `PUT ${r.path}/{id} with no attribute`);
      conforms(`${s}_response`, unchanged.body, `PUT ${r.path}/{id} 200`);
    });

    describe('reference-valid values at the edges of its constraints', () => {
      const outcomes = new Map<string, TestResponse>();
      before(async () => {
        for (const probe of edgeProbes(`new_${s}`)) {
          const doc = documentOf(`new_${s}`, 'create', { requiredOnly: true });
          doc.data.attributes[probe.attribute] = probe.value;
          referenceValidator().assertValid(`new_${s}`, doc, probe.label);
          outcomes.set(probe.label, await send('POST', place.collection, doc));
        }
      });

      test('never make the server fail (no 5xx)', () => {
        const failed = [...outcomes].filter(([, res]) => res.status >= 500).map(([label, res]) => `POST ${place.collection} ${label}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.deepEqual(failed, [], `reference-valid input answered 5xx; it must be stored (201) or refused with a 422 naming the attribute:\n  ${failed.join('\n  ')}`);
      });

      test('are accepted (201), except the documented deviations, which answer a 422 errors_list', () => {
        const known = r.knownStricter ?? {};
        const problems: string[] = [];
        for (const [label, res] of outcomes) {
          if (res.status === 201) {
            conforms(`${s}_response`, res.body, `POST ${r.path} ${label}`);
            if (Object.hasOwn(known, label)) problems.push(`${label}: documented as refused (${known[label]}) but accepted; drop it from knownStricter`);
          } else if (res.status < 500) {
            const documented = Object.hasOwn(known, label) || Object.hasOwn(r.mayRefuse ?? {}, label);
            if (!documented) problems.push(`${label}: refused with ${res.status} ${JSON.stringify(res.body)}; Taproot is stricter than the reference here`);
            else if (res.status !== 422) problems.push(`${label}: refused with ${res.status}, expected 422`);
            else validateAgainstReference('errors_list', res.body, `POST ${r.path} ${label}`);
          }
        }
        assert.deepEqual(problems, []);
      });
    });

    test(`lists with several records, pagination links and meta answer ${s}_list`, async () => {
      const own = await w.api.newOrganization();
      const ownPlace = await placeIn(w.api, own, r);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const doc = referenceDocument(ownPlace.resource, `new_${s}`, 'create');
        const res = await send('POST', ownPlace.collection, doc, own.token);
        assertStatus(res, 201, `POST ${ownPlace.collection}`);
        ids.push(res.body.data.id);
      }
      const filtered = (query: string) => (r.createdOnly ? `${query ? `${query}&` : '?'}${r.createdOnly}` : query);
      const list = (query: string) => send('GET', `${ownPlace.collection}${filtered(query)}`, undefined, own.token);

      const all = await list('');
      assertStatus(all, 200, `GET ${ownPlace.collection}`);
      conforms(r.listSchema ?? `${s}_list`, all.body, `GET ${r.path} 200`);
      assert.deepEqual(all.body.data.map((d: { id: string }) => d.id), ids, 'default order: ascending position (spec, Jun 15, 2026)');
      assert.equal(all.body.meta.total_count, 5);

      const page = await list('?page[number]=2&page[size]=2');
      assertStatus(page, 200, `GET ${r.path} page 2`);
      conforms(r.listSchema ?? `${s}_list`, page.body, `GET ${r.path}?page[number]=2 200`);
      assert.deepEqual(page.body.data.map((d: { id: string }) => d.id), ids.slice(2, 4));
      assert.deepEqual(
        { current_page: page.body.meta.current_page, next_page: page.body.meta.next_page, prev_page: page.body.meta.prev_page, total_count: page.body.meta.total_count, total_pages: page.body.meta.total_pages },
        { current_page: 2, next_page: 3, prev_page: 1, total_count: 5, total_pages: 3 },
      );
      for (const key of ['self', 'first', 'prev', 'next', 'last']) assert.equal(typeof page.body.links[key], 'string', `links.${key} of a middle page`);

      const last = await w.api.request('GET', page.body.links.last, { token: own.token });
      assertStatus(last, 200, `GET links.last`);
      conforms(r.listSchema ?? `${s}_list`, last.body, `GET ${r.path} last page 200`);
      assert.deepEqual(last.body.data.map((d: { id: string }) => d.id), ids.slice(4));
      assert.equal(last.body.meta.next_page, null);

      const beyond = await list('?page[number]=9&page[size]=2');
      assertStatus(beyond, 200, `GET ${r.path} past the last page`);
      conforms(r.listSchema ?? `${s}_list`, beyond.body, `GET ${r.path} past the last page 200`);
      assert.deepEqual(beyond.body.data, []);

      const none = await list('?filter[created_at][lt]=2000-01-01');
      conforms(r.listSchema ?? `${s}_list`, none.body, `GET ${r.path} empty 200`);

      if (r.cursor) {
        const first = await list('?page[size]=2');
        const after = await list(`?page[size]=2&page[after]=${encodeURIComponent(first.body.meta.next_cursor)}`);
        assertStatus(after, 200, `GET ${r.path}?page[after]=`);
        conforms(r.listSchema ?? `${s}_list`, after.body, `GET ${r.path} cursor page 200`);
        assert.deepEqual(after.body.data.map((d: { id: string }) => d.id), ids.slice(2, 4));
      }
    });

    test(`DELETE answers ${s}_response with the deleted record, and the record is gone`, async () => {
      const { doc, res: created } = await create();
      const id = created.body.data.id;
      const res = await send('DELETE', item(id));
      assertStatus(res, 200, `DELETE ${r.path}/{id}`);
      conforms(`${s}_response`, res.body, `DELETE ${r.path}/{id} 200`);
      assert.equal(res.body.data.id, id);
      assertEchoed(r, doc.data.attributes, res.body.data.attributes, `DELETE ${r.path}/{id}`);
      const gone = await send('GET', item(id));
      assertStatus(gone, 404, 'GET after DELETE');
      validateAgainstReference('errors_list', gone.body, `GET ${r.path}/{id} 404`);
    });

    test('error responses answer errors_list: 401, 404 and 422', async () => {
      const { res: created } = await create();
      const id = created.body.data.id;
      const required = (requestAttributesSchema(`new_${s}`).required as string[] | undefined) ?? [];
      // A required string the update also takes (`name` where there is one), sent as a number; else
      // another required attribute it takes (an integer `user_id`), sent as a string.
      const updates = (name: string) => referenceValidator().resolve(requestAttributes(updateName)[name] ?? {}).type;
      const typed = required.find((name) => updates(name) === 'string') ?? required.find((name) => updates(name) !== undefined);
      assert.ok(typed, `${updateName} takes no required attribute of new_${s}`);
      const wrong = updates(typed) === 'string' ? 42 : 'not a number';
      const unknown = { ...documentOf(`new_${s}`, 'create', { requiredOnly: true }).data.attributes, no_such_attribute: true };
      const cases: [string, Promise<TestResponse>, number][] = [
        ['GET list without a token', send('GET', place.collection, undefined, NO_TOKEN), 401],
        ['POST with an unknown token', send('POST', place.collection, documentOf(`new_${s}`, 'create'), 'tpr_unknown-token-for-conformance'), 401],
        ['GET an unknown id', send('GET', item(randomUUID())), 404],
        ['PUT an unknown id', send(r.updateVerb ?? 'PUT', item(randomUUID()), documentOf(updateName, 'update')), 404],
        ['DELETE an unknown id', send('DELETE', item(randomUUID())), 404],
        ['POST without the required attributes', send('POST', place.collection, { data: { type: r.type, attributes: {} } }), 422],
        ['POST an attribute the reference does not know', send('POST', place.collection, { data: { type: r.type, attributes: unknown } }), 422],
        [`PUT a wrongly typed ${typed}`, send(r.updateVerb ?? 'PUT', item(id), { data: { type: r.type, attributes: { [typed]: wrong } } }), 422],
      ];
      for (const [what, pending, status] of cases) {
        const res = await pending;
        assertStatus(res, status, what);
        validateAgainstReference('errors_list', res.body, `${what} ${status}`);
        assert.ok(res.body.errors.length > 0, `${what}: empty errors`);
        assert.ok(res.body.errors.every((e: { status: string }) => e.status === String(status)), `${what}: errors[].status`);
      }
    });
  });
}

/**
 * Where Taproot's declarations (libs/catalog) are deliberately stricter than the reference, whose
 * `name` and `position` carry no bounds at all.
 */
export const CATALOG_KNOWN_STRICTER: Record<string, string> = {
  'name=""': 'minLength 1: a name is required and must not be empty',
  'name=<10000 chars>': 'maxLength 255',
  'position=-1': 'minimum 0',
};

/**
 * `position` and `owner_user_ids` are Postgres `integer` columns: a value beyond 2^31-1 must be
 * refused with a 422 (a `maximum` in the declaration) or stored (a `bigint` column); today it
 * answers 500 (see 'never make the server fail').
 */
export const INT4_BOUNDED: Record<string, string> = {
  [`position=${INT4_OVERFLOW}`]: 'integer column',
  [`position=${Number.MAX_SAFE_INTEGER}`]: 'integer column',
  [`owner_user_ids=[${INT4_OVERFLOW}]`]: 'integer[] column',
};

/** POSTs a `type` record with `attributes` to `path` in the organization: its id. */
export async function made(api: TestApi, org: TestOrganization, path: string, type: string, attributes: Attributes = {}): Promise<string> {
  const res = await api.request('POST', path, { token: org.token, body: { data: { type, attributes } } });
  assertStatus(res, 201, `POST ${path}`);
  return res.body.data.id;
}

/** Probes declarations refuse on purpose, and ways to name more. */
export const NAMED = { 'name=""': 'minLength 1: a name is required and must not be empty', 'name=<10000 chars>': 'maxLength 255' };
export const STRICTER = (attribute: string, why: string) => ({ [`${attribute}=""`]: why, [`${attribute}=<10000 chars>`]: why });
export const INT4 = (attribute: string) => ({ [`${attribute}=${INT4_OVERFLOW}`]: 'an integer column', [`${attribute}=${Number.MAX_SAFE_INTEGER}`]: 'an integer column' });
export const REFERENCE = (attribute: string, what: string) => ({ [`${attribute}=""`]: `must name ${what} of the organization`, [`${attribute}=<10000 chars>`]: `must name ${what} of the organization` });
export const DATE_TIME = (attribute: string) => ({ [`${attribute}=""`]: 'an ISO 8601 date-time (the reference says string)', [`${attribute}=<10000 chars>`]: 'an ISO 8601 date-time (the reference says string)' });
