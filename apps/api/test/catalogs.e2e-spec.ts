import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Custom catalogs, their properties and entities, and the built-in catalogs' properties (docs/catalogs.md). */
describe('catalogs over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const newCatalog = async (attributes: Attributes = {}): Promise<Json> => created(await send('POST', '/v1/catalogs', doc('catalogs', { name: unique('Catalog'), ...attributes })));
  const newProperty = async (catalogId: string, attributes: Attributes): Promise<Json> =>
    created(await send('POST', `/v1/catalogs/${catalogId}/properties`, doc('catalog_properties', { name: unique('Property'), kind: 'text', ...attributes })));
  const newEntity = async (catalogId: string, attributes: Attributes = {}): Promise<Json> =>
    created(await send('POST', `/v1/catalogs/${catalogId}/entities`, doc('catalog_entities', { name: unique('Entity'), ...attributes })));

  test('a catalog: created with its defaults, read by id and slug, listed with filters, changed and deleted', async () => {
    const catalog = await newCatalog({ name: 'Data Stores', description: 'Where data lives', external_id: 'ds-1' });
    assert.deepEqual(
      { icon: catalog.attributes.icon, slug: catalog.attributes.slug, managed_by: catalog.attributes.managed_by, position: typeof catalog.attributes.position },
      { icon: 'globe-alt', slug: 'data-stores', managed_by: 'api', position: 'number' },
    );
    assert.equal((await send('GET', `/v1/catalogs/${catalog.id}`)).body.data.attributes.name, 'Data Stores');
    assert.equal((await send('GET', '/v1/catalogs/data-stores')).body.data.id, catalog.id);
    assert.deepEqual(ids(await send('GET', '/v1/catalogs?filter[external_id]=ds-1')), [catalog.id]);
    assert.deepEqual(ids(await send('GET', '/v1/catalogs?filter[search]=data%20lives')), [catalog.id]);
    assert.deepEqual(ids(await send('GET', '/v1/catalogs?filter[managed_by][eq]=api&filter[name]=Data%20Stores')), [catalog.id]);
    const changed = await send('PUT', `/v1/catalogs/${catalog.id}`, doc('catalogs', { icon: 'server-stack', position: 7 }));
    assert.equal(changed.status, 200);
    assert.deepEqual([changed.body.data.attributes.icon, changed.body.data.attributes.position], ['server-stack', 7]);
    const deleted = await send('DELETE', `/v1/catalogs/${catalog.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await send('GET', `/v1/catalogs/${catalog.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, catalog.id), ['catalog.created', 'catalog.updated', 'catalog.deleted']);
  });

  test('bad catalog input is a 422 naming the attribute, and nothing is written', async () => {
    const before = (await send('GET', '/v1/catalogs?page[size]=100')).body.meta.total_count;
    const bad = await send('POST', '/v1/catalogs', doc('catalogs', { name: 'Bad icon', icon: 'rocket' }));
    assert.equal(bad.status, 422);
    assert.deepEqual(pointers(bad), ['/data/attributes/icon']);
    const nameless = await send('POST', '/v1/catalogs', doc('catalogs', { description: 'no name' }));
    assert.equal(nameless.status, 422);
    assert.deepEqual(pointers(nameless), ['/data/attributes/name']);
    assert.equal((await send('GET', '/v1/catalogs?page[size]=100')).body.meta.total_count, before);
  });

  test('a custom catalog\'s properties: under the catalog, then at /v1/catalog_properties/{id}', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Tier', kind: 'text', required: false });
    assert.deepEqual(
      { catalog_id: property.attributes.catalog_id, catalog_type: property.attributes.catalog_type, multiple: property.attributes.multiple, required: property.attributes.required, kind_catalog_id: property.attributes.kind_catalog_id },
      { catalog_id: catalog.id, catalog_type: 'catalog', multiple: false, required: false, kind_catalog_id: null },
    );
    assert.deepEqual(ids(await send('GET', `/v1/catalogs/${catalog.id}/properties`)), [property.id]);
    assert.equal((await send('GET', `/v1/catalog_properties/${property.id}`)).body.data.attributes.name, 'Tier');
    const renamed = await send('PUT', `/v1/catalog_properties/${property.id}`, doc('catalog_properties', { name: 'Service tier', multiple: true }));
    assert.deepEqual([renamed.status, renamed.body.data.attributes.name, renamed.body.data.attributes.multiple], [200, 'Service tier', true]);
    const mismatch = await send('POST', `/v1/catalogs/${catalog.id}/properties`, doc('catalog_properties', { name: 'X', kind: 'text', catalog_type: 'service' }));
    assert.deepEqual([mismatch.status, pointers(mismatch)], [422, ['/data/attributes/catalog_type']]);
    assert.equal((await send('GET', '/v1/catalogs/00000000-0000-4000-8000-000000000000/properties')).status, 404);
  });

  test('a reference property names a catalog of the organization; a catalog holds at most 50 properties', async () => {
    const catalog = await newCatalog();
    const target = await newCatalog();
    const without = await send('POST', `/v1/catalogs/${catalog.id}/properties`, doc('catalog_properties', { name: 'Owner', kind: 'reference' }));
    assert.deepEqual([without.status, pointers(without)], [422, ['/data/attributes/kind_catalog_id']]);
    const foreign = created(await send('POST', '/v1/catalogs', doc('catalogs', { name: unique('Theirs') }), w.other.token));
    const theirs = await send('POST', `/v1/catalogs/${catalog.id}/properties`, doc('catalog_properties', { name: 'Owner', kind: 'reference', kind_catalog_id: foreign.id }));
    assert.deepEqual([theirs.status, pointers(theirs)], [422, ['/data/attributes/kind_catalog_id']]);
    const reference = await newProperty(catalog.id, { name: 'Owner', kind: 'reference', kind_catalog_id: target.id });
    assert.equal(reference.attributes.kind_catalog_id, target.id);
    for (let i = 1; i < 50; i++) await newProperty(catalog.id, { name: `P${i}` });
    const fiftyFirst = await send('POST', `/v1/catalogs/${catalog.id}/properties`, doc('catalog_properties', { name: 'One too many', kind: 'text' }));
    assert.equal(fiftyFirst.status, 422);
    assert.match(fiftyFirst.body.errors[0].detail, /at most 50 properties/);
    assert.equal((await send('GET', `/v1/catalogs/${catalog.id}/properties?page[size]=100`)).body.meta.total_count, 50);
  });

  test('built-in catalogs\' properties: typed by their route, listed apart, read at /v1/catalog_properties/{id}', async () => {
    const forServices = created(await send('POST', '/v1/services/properties', doc('catalog_properties', { name: 'Language', kind: 'text' })));
    assert.deepEqual([forServices.attributes.catalog_type, forServices.attributes.catalog_id], ['service', null]);
    const forTeams = created(await send('POST', '/v1/teams/properties', doc('catalog_properties', { name: 'Slack', kind: 'text', catalog_type: 'team' })));
    assert.equal(forTeams.attributes.catalog_type, 'team');
    const services = await send('GET', '/v1/services/properties');
    assert.deepEqual(ids(services), [forServices.id]);
    assert.match(services.body.links.self, /^\/v1\/services\/properties\?/);
    assert.deepEqual(ids(await send('GET', '/v1/teams/properties')), [forTeams.id]);
    assert.deepEqual(ids(await send('GET', '/v1/causes/properties')), []);
    assert.equal((await send('GET', `/v1/catalog_properties/${forServices.id}`)).body.data.attributes.name, 'Language');
    const wrongType = await send('POST', '/v1/environments/properties', doc('catalog_properties', { name: 'Region', kind: 'text', catalog_type: 'cause' }));
    assert.deepEqual([wrongType.status, pointers(wrongType)], [422, ['/data/attributes/catalog_type']]);
    assert.deepEqual(ids(await send('GET', '/v1/services/properties', undefined, w.other.token)), []);
    // The route is the properties', not a service named "properties".
    assert.equal((await send('GET', '/v1/services/properties')).body.data[0].type, 'catalog_properties');
  });

  test('an entity\'s properties are values of its catalog\'s properties, of their kind', async () => {
    const catalog = await newCatalog();
    const elsewhere = await newCatalog();
    const people = await newCatalog();
    const person = await newEntity(people.id, { name: 'Ada' });
    const text = await newProperty(catalog.id, { name: 'Region', kind: 'text', multiple: true });
    const flag = await newProperty(catalog.id, { name: 'PCI', kind: 'boolean' });
    const owner = await newProperty(catalog.id, { name: 'Owner', kind: 'reference', kind_catalog_id: people.id });
    const foreignProperty = await newProperty(elsewhere.id, { name: 'Other' });
    const entity = await newEntity(catalog.id, {
      name: 'Orders DB',
      external_id: 'orders-db',
      properties: [
        { catalog_property_id: text.id, value: 'eu-west-1' },
        { catalog_property_id: text.id, value: 'us-east-1' },
        { catalog_property_id: flag.id, value: 'true' },
        { catalog_property_id: owner.id, value: person.id },
      ],
    });
    assert.equal(entity.attributes.catalog_id, catalog.id);
    assert.equal(entity.attributes.properties.length, 4);
    const refused = async (properties: Attributes[], detail: RegExp) => {
      const res = await send('POST', `/v1/catalogs/${catalog.id}/entities`, doc('catalog_entities', { name: 'Refused', properties }));
      assert.deepEqual([res.status, pointers(res)], [422, ['/data/attributes/properties']], JSON.stringify(res.body));
      assert.match(res.body.errors[0].detail, detail);
    };
    await refused([{ catalog_property_id: foreignProperty.id, value: 'x' }], /is not a property of catalog/);
    await refused([{ catalog_property_id: flag.id, value: 'yes' }], /must be true or false/);
    await refused([{ catalog_property_id: flag.id, value: 'true' }, { catalog_property_id: flag.id, value: 'false' }], /takes one value/);
    await refused([{ catalog_property_id: owner.id, value: catalog.id }], /is not a catalog entity/);
    assert.deepEqual(ids(await send('GET', `/v1/catalogs/${catalog.id}/entities?filter[name]=Refused`)), []);
    const required = await newProperty(catalog.id, { name: 'Tier', required: true });
    await refused([], /required properties without a value: Tier/);
    const withTier = await send('PUT', `/v1/catalog_entities/${entity.id}`, doc('catalog_entities', { properties: [{ catalog_property_id: required.id, value: 'gold' }] }));
    assert.equal(withTier.status, 200, JSON.stringify(withTier.body));
    assert.deepEqual(withTier.body.data.attributes.properties, [{ catalog_property_id: required.id, value: 'gold' }]);
  });

  test('entities: listed under their catalog with filters, read by id or slug, another catalog\'s kept apart', async () => {
    const catalog = await newCatalog();
    const second = await newCatalog();
    const a = await newEntity(catalog.id, { name: 'Kafka Cluster', backstage_id: 'component:kafka', description: 'event streaming' });
    const b = await newEntity(catalog.id, { name: 'Redis' });
    await newEntity(second.id, { name: 'Elsewhere' });
    assert.deepEqual(ids(await send('GET', `/v1/catalogs/${catalog.id}/entities`)), [a.id, b.id]);
    assert.deepEqual(ids(await send('GET', `/v1/catalogs/${catalog.id}/entities?filter[backstage_id]=component:kafka`)), [a.id]);
    assert.deepEqual(ids(await send('GET', `/v1/catalogs/${catalog.id}/entities?filter[search]=streaming`)), [a.id]);
    assert.equal((await send('GET', `/v1/catalog_entities/${a.attributes.slug}`)).body.data.id, a.id);
    const moved = await send('PUT', `/v1/catalog_entities/${a.id}`, doc('catalog_entities', { catalog_id: second.id, name: 'Kafka' }));
    assert.deepEqual([moved.status, moved.body.data.attributes.catalog_id, moved.body.data.attributes.name], [200, catalog.id, 'Kafka']);
  });

  test('bulk upsert and delete act on one catalog\'s entities by external_id', async () => {
    const catalog = await newCatalog();
    const second = await newCatalog();
    const twin = await newEntity(second.id, { name: 'Twin', external_id: 'svc-a', managed_by: 'api' });
    const upsert = (catalogId: string, entities: Attributes[]) => send('POST', `/v1/catalogs/${catalogId}/entities/bulk_upsert`, { entities });
    const first = await upsert(catalog.id, [
      { external_id: 'svc-a', name: 'A' },
      { external_id: 'svc-b', name: 'B' },
    ]);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data.map((d: Json) => d.attributes.catalog_id), [catalog.id, catalog.id]);
    const again = await upsert(catalog.id, [{ external_id: 'svc-a', description: 'now described' }]);
    assert.deepEqual([again.body.data[0].id, again.body.data[0].attributes.name, again.body.data[0].attributes.description], [first.body.data[0].id, 'A', 'now described']);
    assert.equal((await send('GET', `/v1/catalog_entities/${twin.id}`)).body.data.attributes.name, 'Twin');
    const pruned = await send('POST', `/v1/catalogs/${catalog.id}/entities/bulk_delete`, { managed_by: 'api', keep_external_ids: ['svc-b'] });
    assert.deepEqual([pruned.status, pruned.body.data.deleted_external_ids], [200, ['svc-a']]);
    assert.deepEqual(ids(await send('GET', `/v1/catalogs/${catalog.id}/entities`)), [first.body.data[1].id]);
    assert.equal((await send('GET', `/v1/catalog_entities/${twin.id}`)).status, 200);
    const byIds = await send('POST', `/v1/catalogs/${catalog.id}/entities/bulk_delete`, { external_ids: ['svc-b', 'nope'] });
    assert.deepEqual([byIds.body.data.deleted_external_ids, byIds.body.data.not_found_external_ids], [['svc-b'], ['nope']]);
    assert.equal((await upsert('00000000-0000-4000-8000-000000000000', [{ external_id: 'x', name: 'X' }])).status, 404);
  });

  test("bulk upserts take the reference's fields: property values by id, slug or external id, merged into properties", async () => {
    const catalog = await newCatalog();
    const region = await newProperty(catalog.id, { name: 'Region', external_id: 'region' });
    const tier = await newProperty(catalog.id, { name: unique('Tier') });
    const flag = await newProperty(catalog.id, { name: unique('PCI'), kind: 'boolean' });
    const upsert = (entities: Attributes[]) => send('POST', `/v1/catalogs/${catalog.id}/entities/bulk_upsert`, { entities });
    const first = await upsert([{ external_id: 'db', name: 'DB', fields: [{ catalog_property_id: region.id, value: 'eu' }, { catalog_field_id: tier.attributes.slug, value: 'gold' }] }]);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data[0].attributes.properties, [{ catalog_property_id: region.id, value: 'eu' }, { catalog_property_id: tier.id, value: 'gold' }]);
    // Only the mentioned property changes; the others stay.
    const merged = await upsert([{ external_id: 'db', fields: [{ catalog_property_id: 'region', value: 'us' }] }]);
    assert.deepEqual(merged.body.data[0].attributes.properties, [{ catalog_property_id: tier.id, value: 'gold' }, { catalog_property_id: region.id, value: 'us' }]);
    for (const [fields, pointer] of [
      [[{ catalog_property_id: 'nope', value: 'x' }], '/entities/0/fields/0/catalog_property_id'],
      [[{ value: 'x' }], '/entities/0/fields/0'],
      [[{ catalog_property_id: flag.id, value: 'maybe' }], '/entities/0/properties'],
    ] as [Attributes[], string][]) {
      const res = await upsert([{ external_id: 'db', fields }]);
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(fields));
    }
    const forServices = created(await send('POST', '/v1/services/properties', doc('catalog_properties', { name: unique('Owner'), kind: 'text', external_id: 'svc-owner' })));
    const services = await send('POST', '/v1/services/bulk_upsert', { entities: [{ external_id: unique('svc'), name: unique('Svc'), fields: [{ catalog_property_id: 'svc-owner', value: 'payments' }] }] });
    assert.deepEqual([services.status, services.body.data[0].attributes.properties], [200, [{ catalog_property_id: forServices.id, value: 'payments' }]]);
  });

  test('deleting a property removes its values from the entities and services holding them, each with its event', async () => {
    const catalog = await newCatalog();
    const kept = await newProperty(catalog.id, { name: 'Kept' });
    const doomed = await newProperty(catalog.id, { name: 'Doomed' });
    const entity = await newEntity(catalog.id, { properties: [{ catalog_property_id: kept.id, value: 'k' }, { catalog_property_id: doomed.id, value: 'd' }] });
    const value = created(await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: doomed.id, key: 'text', value: 'old style' })));
    const forServices = created(await send('POST', '/v1/services/properties', doc('catalog_properties', { name: unique('Runtime'), kind: 'text' })));
    const service = created(await send('POST', '/v1/services', doc('services', { name: unique('Billing'), properties: [{ catalog_property_id: forServices.id, value: 'node' }] })));
    assert.equal((await send('DELETE', `/v1/catalog_properties/${doomed.id}`)).status, 200);
    assert.deepEqual((await send('GET', `/v1/catalog_entities/${entity.id}`)).body.data.attributes.properties, [{ catalog_property_id: kept.id, value: 'k' }]);
    assert.deepEqual(await outboxTypes(w.api, entity.id), ['catalog_entity.created', 'catalog_entity.updated']);
    assert.equal((await send('GET', `/v1/catalog_entity_properties/${value.id}`)).status, 404);
    assert.equal((await send('DELETE', `/v1/catalog_properties/${forServices.id}`)).status, 200);
    assert.deepEqual((await send('GET', `/v1/services/${service.id}`)).body.data.attributes.properties, []);
  });

  test('deleting a catalog deletes its entities, their values and its properties, each with its event', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Size' });
    const entity = await newEntity(catalog.id, { properties: [{ catalog_property_id: property.id, value: 'L' }] });
    const value = created(await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: property.id, key: 'text', value: 'XL' })));
    assert.equal((await send('DELETE', `/v1/catalogs/${catalog.id}`)).status, 200);
    for (const path of [`/v1/catalog_entities/${entity.id}`, `/v1/catalog_properties/${property.id}`, `/v1/catalog_entity_properties/${value.id}`]) assert.equal((await send('GET', path)).status, 404, path);
    assert.deepEqual(await outboxTypes(w.api, entity.id), ['catalog_entity.created', 'catalog_entity.deleted']);
    assert.deepEqual(await outboxTypes(w.api, value.id), ['catalog_entity_property.created', 'catalog_entity_property.deleted']);
  });

  test('the deprecated entity property values: under their entity, of a property of its catalog', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Links' });
    const foreign = await newProperty((await newCatalog()).id, { name: 'Other' });
    const entity = await newEntity(catalog.id);
    const value = created(await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: property.id, key: 'text', value: 'https://wiki' })));
    assert.deepEqual([value.attributes.catalog_entity_id, value.attributes.catalog_field_id, value.attributes.key], [entity.id, property.id, 'text']);
    const wrong = await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: foreign.id, key: 'text', value: 'x' }));
    assert.deepEqual([wrong.status, pointers(wrong)], [422, ['/data/attributes/catalog_field_id']]);
    const badKey = await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: property.id, key: 'url', value: 'x' }));
    assert.deepEqual([badKey.status, pointers(badKey)], [422, ['/data/attributes/key']]);
    assert.deepEqual(ids(await send('GET', `/v1/catalog_entities/${entity.id}/properties?filter[key]=text`)), [value.id]);
    const changed = await send('PUT', `/v1/catalog_entity_properties/${value.id}`, doc('catalog_entity_properties', { value: 'https://wiki/v2' }));
    assert.deepEqual([changed.status, changed.body.data.attributes.value], [200, 'https://wiki/v2']);
  });

  test('another organization\'s catalogs, properties and entities answer 404 and are never listed', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Secret' });
    const entity = await newEntity(catalog.id, { external_id: 'mine' });
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    for (const path of [`/v1/catalogs/${catalog.id}`, `/v1/catalog_properties/${property.id}`, `/v1/catalog_entities/${entity.id}`, `/v1/catalogs/${catalog.id}/entities`, `/v1/catalogs/${catalog.id}/properties`]) {
      assert.equal((await theirs('GET', path)).status, 404, path);
    }
    assert.equal((await theirs('POST', `/v1/catalogs/${catalog.id}/entities`, doc('catalog_entities', { name: 'Intruder' }))).status, 404);
    assert.equal((await theirs('POST', `/v1/catalogs/${catalog.id}/entities/bulk_delete`, { external_ids: ['mine'] })).status, 404);
    assert.equal((await theirs('PUT', `/v1/catalog_entities/${entity.id}`, doc('catalog_entities', { name: 'Taken' }))).status, 404);
    assert.equal((await theirs('DELETE', `/v1/catalogs/${catalog.id}`)).status, 404);
    assert.ok(!ids(await theirs('GET', '/v1/catalogs?page[size]=100')).includes(catalog.id));
    assert.equal((await send('GET', `/v1/catalog_entities/${entity.id}`)).body.data.attributes.name, entity.attributes.name);
  });

  /** The record as its own GET answers it: what `included` must carry (with `relationships`, {} when none is asked). */
  const asOwnGet = async (path: string): Promise<Json> => {
    const res = await send('GET', path);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ...res.body.data, relationships: {} };
  };
  const linkage = (record: Json, name: string) => record.relationships?.[name]?.data;
  const included = (res: { body: Json }): [string, string][] => (res.body.included ?? []).map((r: Json) => [r.type, r.id]);
  const read = async (path: string, token?: string) => {
    const res = await send('GET', path, undefined, token);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return res;
  };

  test('include on catalogs: fields (their properties) and entities, on the list and the get', async () => {
    const marker = unique('inc');
    const catalog = await newCatalog({ external_id: `${marker}-a` });
    const empty = await newCatalog({ external_id: `${marker}-b` });
    const second = await newProperty(catalog.id, { name: 'Second', position: 2 });
    const first = await newProperty(catalog.id, { name: 'First', position: 1 });
    const entity = await newEntity(catalog.id, { properties: [{ catalog_property_id: first.id, value: 'x' }] });
    const list = await read(`/v1/catalogs?include=fields,entities&filter[external_id][in]=${marker}-a,${marker}-b`);
    const [a, b] = [catalog.id, empty.id].map((id) => list.body.data.find((c: Json) => c.id === id));
    assert.deepEqual(linkage(a, 'fields'), [{ type: 'catalog_properties', id: first.id }, { type: 'catalog_properties', id: second.id }]);
    assert.deepEqual(linkage(a, 'entities'), [{ type: 'catalog_entities', id: entity.id }]);
    assert.deepEqual([linkage(b, 'fields'), linkage(b, 'entities')], [[], []]);
    assert.deepEqual(included(list).sort(), [['catalog_entities', entity.id], ['catalog_properties', first.id], ['catalog_properties', second.id]].sort());
    // Each included record is answered as its own GET answers it.
    const byId = new Map(list.body.included.map((r: Json) => [r.id, r]));
    assert.deepEqual(byId.get(first.id), await asOwnGet(`/v1/catalog_properties/${first.id}`));
    assert.deepEqual(byId.get(entity.id), await asOwnGet(`/v1/catalog_entities/${entity.id}`));

    const one = await read(`/v1/catalogs/${catalog.id}?include=fields`);
    assert.deepEqual(linkage(one.body.data, 'fields'), [{ type: 'catalog_properties', id: first.id }, { type: 'catalog_properties', id: second.id }]);
    assert.equal(one.body.data.relationships.entities, undefined);
    assert.deepEqual(included(one), [['catalog_properties', first.id], ['catalog_properties', second.id]]);
    assert.deepEqual(included(await read(`/v1/catalogs/${catalog.id}?include=entities`)), [['catalog_entities', entity.id]]);
    // Without include, no relationships; a name the reference does not declare is a 400.
    assert.equal((await read(`/v1/catalogs/${catalog.id}`)).body.data.relationships, undefined);
    const bad = await send('GET', '/v1/catalogs?include=properties');
    assert.deepEqual([bad.status, bad.body.errors[0].source?.parameter], [400, 'include']);
  });

  test('include on entities: catalog and properties (their deprecated value records), on the list under the catalog and the get', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Link' });
    const [withValues, without] = [await newEntity(catalog.id), await newEntity(catalog.id)];
    const value = async (v: string) => created(await send('POST', `/v1/catalog_entities/${withValues.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: property.id, key: 'text', value: v })));
    const v1 = await value('https://one');
    const v2 = await value('https://two');
    const list = await read(`/v1/catalogs/${catalog.id}/entities?include=catalog,properties`);
    assert.deepEqual(list.body.data.map((e: Json) => [e.id, linkage(e, 'catalog'), linkage(e, 'properties')]), [
      [withValues.id, { type: 'catalogs', id: catalog.id }, [{ type: 'catalog_entity_properties', id: v1.id }, { type: 'catalog_entity_properties', id: v2.id }]],
      [without.id, { type: 'catalogs', id: catalog.id }, []],
    ]);
    // The catalog both name is included once.
    assert.deepEqual(included(list), [['catalogs', catalog.id], ['catalog_entity_properties', v1.id], ['catalog_entity_properties', v2.id]]);
    const byId = new Map(list.body.included.map((r: Json) => [r.id, r]));
    assert.deepEqual(byId.get(catalog.id), await asOwnGet(`/v1/catalogs/${catalog.id}`));
    assert.deepEqual(byId.get(v1.id), await asOwnGet(`/v1/catalog_entity_properties/${v1.id}`));
    // The entity keeps its `properties` attribute (the values it holds) beside the relationship.
    assert.deepEqual(list.body.data[0].attributes.properties, []);

    const one = await read(`/v1/catalog_entities/${withValues.id}?include=catalog`);
    assert.deepEqual(linkage(one.body.data, 'catalog'), { type: 'catalogs', id: catalog.id });
    assert.deepEqual(included(one), [['catalogs', catalog.id]]);
    const values = await read(`/v1/catalog_entities/${withValues.id}?include=properties`);
    assert.deepEqual(included(values), [['catalog_entity_properties', v1.id], ['catalog_entity_properties', v2.id]]);
  });

  test('include on entity values: catalog_entity and catalog_field, on the list under the entity and the get', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Wiki' });
    const entity = await newEntity(catalog.id);
    const value = created(await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: property.id, key: 'text', value: 'https://wiki' })));
    const list = await read(`/v1/catalog_entities/${entity.id}/properties?include=catalog_entity,catalog_field`);
    assert.deepEqual(list.body.data.map((v: Json) => [linkage(v, 'catalog_entity'), linkage(v, 'catalog_field')]), [
      [{ type: 'catalog_entities', id: entity.id }, { type: 'catalog_properties', id: property.id }],
    ]);
    assert.deepEqual(included(list), [['catalog_entities', entity.id], ['catalog_properties', property.id]]);
    const byId = new Map(list.body.included.map((r: Json) => [r.id, r]));
    assert.deepEqual(byId.get(entity.id), await asOwnGet(`/v1/catalog_entities/${entity.id}`));
    assert.deepEqual(byId.get(property.id), await asOwnGet(`/v1/catalog_properties/${property.id}`));
    const one = await read(`/v1/catalog_entity_properties/${value.id}?include=catalog_field`);
    assert.deepEqual(linkage(one.body.data, 'catalog_field'), { type: 'catalog_properties', id: property.id });
    assert.deepEqual(included(one), [['catalog_properties', property.id]]);
    assert.deepEqual(included(await read(`/v1/catalog_entity_properties/${value.id}?include=catalog_entity`)), [['catalog_entities', entity.id]]);
  });

  test('include=catalog on properties: a built-in catalog\'s (catalog_id null) is accepted on each route and includes nothing; a custom one\'s includes its catalog', async () => {
    const forServices = created(await send('POST', '/v1/services/properties', doc('catalog_properties', { name: unique('Tier'), kind: 'text' })));
    for (const route of ['services', 'environments', 'functionalities', 'incident_types', 'causes', 'teams']) {
      const res = await read(`/v1/${route}/properties?include=catalog`);
      for (const record of res.body.data) assert.equal(linkage(record, 'catalog'), null, route);
      assert.deepEqual(res.body.included, [], route);
    }
    const services = await read('/v1/services/properties?include=catalog&page[size]=100');
    assert.ok(services.body.data.some((p: Json) => p.id === forServices.id && 'catalog' in p.relationships));
    const one = await read(`/v1/catalog_properties/${forServices.id}?include=catalog`);
    assert.deepEqual([linkage(one.body.data, 'catalog'), one.body.included], [null, []]);

    const catalog = await newCatalog();
    const custom = await newProperty(catalog.id, { name: 'Owner' });
    const under = await read(`/v1/catalogs/${catalog.id}/properties?include=catalog`);
    assert.deepEqual(linkage(under.body.data[0], 'catalog'), { type: 'catalogs', id: catalog.id });
    assert.deepEqual(included(under), [['catalogs', catalog.id]]);
    assert.deepEqual(included(await read(`/v1/catalog_properties/${custom.id}?include=catalog`)), [['catalogs', catalog.id]]);
    const bad = await send('GET', '/v1/services/properties?include=entities');
    assert.deepEqual([bad.status, bad.body.errors[0].source?.parameter], [400, 'include']);
  });

  test('include never reaches another organization\'s records, even where a stored id names one', async () => {
    const catalog = await newCatalog();
    const property = await newProperty(catalog.id, { name: 'Mine' });
    const entity = await newEntity(catalog.id);
    const value = created(await send('POST', `/v1/catalog_entities/${entity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: property.id, key: 'text', value: 'v' })));
    const theirCatalog = created(await send('POST', '/v1/catalogs', doc('catalogs', { name: unique('Theirs') }), w.other.token));
    const theirProperty = created(await send('POST', `/v1/catalogs/${theirCatalog.id}/properties`, doc('catalog_properties', { name: 'Theirs', kind: 'text' }), w.other.token));
    const theirEntity = created(await send('POST', `/v1/catalogs/${theirCatalog.id}/entities`, doc('catalog_entities', { name: 'Theirs' }), w.other.token));
    const theirValue = created(
      await send('POST', `/v1/catalog_entities/${theirEntity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: theirProperty.id, key: 'text', value: 't' }), w.other.token),
    );
    // Planted in the read models, past the writes' checks: only the includes' scoping keeps them out.
    const plant = (sql: string, params: string[]) => w.api.runtime.dataSource.query(sql, params);
    await plant('UPDATE catalog_properties_read SET catalog_id = $2 WHERE id = $1', [theirProperty.id, catalog.id]);
    await plant('UPDATE catalog_entities_read SET catalog_id = $2 WHERE id = $1', [theirEntity.id, catalog.id]);
    await plant('UPDATE catalog_entity_properties_read SET catalog_entity_id = $2 WHERE id = $1', [theirValue.id, entity.id]);
    const mixed = await newCatalog();
    const stray = await newProperty(mixed.id, { name: 'Stray' });
    const strayEntity = await newEntity(mixed.id);
    const strayValue = created(await send('POST', `/v1/catalog_entities/${strayEntity.id}/properties`, doc('catalog_entity_properties', { catalog_field_id: stray.id, key: 'text', value: 's' })));
    await plant('UPDATE catalog_properties_read SET catalog_id = $2 WHERE id = $1', [stray.id, theirCatalog.id]);
    await plant('UPDATE catalog_entities_read SET catalog_id = $2 WHERE id = $1', [strayEntity.id, theirCatalog.id]);
    await plant('UPDATE catalog_entity_properties_read SET catalog_entity_id = $2, catalog_field_id = $3 WHERE id = $1', [strayValue.id, theirEntity.id, theirProperty.id]);

    const theirIds = [theirCatalog.id, theirProperty.id, theirEntity.id, theirValue.id];
    const assertNoneOfTheirs = (res: { body: Json }, path: string) => assert.ok(!included(res).some(([, id]) => theirIds.includes(id)), `${path}: ${JSON.stringify(res.body.included)}`);
    const paths = [
      `/v1/catalogs/${catalog.id}?include=fields,entities`,
      '/v1/catalogs?include=fields,entities&page[size]=100',
      `/v1/catalog_entities/${entity.id}?include=properties`,
      `/v1/catalog_properties/${stray.id}?include=catalog`,
      `/v1/catalog_entities/${strayEntity.id}?include=catalog`,
      `/v1/catalog_entity_properties/${strayValue.id}?include=catalog_entity,catalog_field`,
    ];
    for (const path of paths) assertNoneOfTheirs(await read(path), path);
    const mine = await read(`/v1/catalogs/${catalog.id}?include=fields,entities`);
    assert.deepEqual([linkage(mine.body.data, 'fields'), linkage(mine.body.data, 'entities')], [[{ type: 'catalog_properties', id: property.id }], [{ type: 'catalog_entities', id: entity.id }]]);
    assert.deepEqual(linkage((await read(`/v1/catalog_entities/${entity.id}?include=properties`)).body.data, 'properties'), [{ type: 'catalog_entity_properties', id: value.id }]);
    assert.equal(linkage((await read(`/v1/catalog_properties/${stray.id}?include=catalog`)).body.data, 'catalog'), null);
    const strayOne = await read(`/v1/catalog_entity_properties/${strayValue.id}?include=catalog_entity,catalog_field`);
    assert.deepEqual([linkage(strayOne.body.data, 'catalog_entity'), linkage(strayOne.body.data, 'catalog_field')], [null, null]);
    // The other organization's own includes do not see ours either.
    const theirs = await read(`/v1/catalogs/${theirCatalog.id}?include=fields,entities`, w.other.token);
    assert.deepEqual([linkage(theirs.body.data, 'fields'), linkage(theirs.body.data, 'entities')], [[], []]);
  });

  test('the served OpenAPI document declares the reference\'s include enums', async () => {
    const openapi = (await read('/v1/openapi.json')).body;
    const includeOf = (path: string) => openapi.paths[path].get.parameters.find((p: Json) => p.name === 'include')?.schema?.enum;
    assert.deepEqual(includeOf('/v1/catalogs'), ['fields', 'entities']);
    assert.deepEqual(includeOf('/v1/catalogs/{catalog_id}/entities'), ['catalog', 'properties']);
    assert.deepEqual(includeOf('/v1/catalog_entities/{id}'), ['catalog', 'properties']);
    assert.deepEqual(includeOf('/v1/catalog_entities/{catalog_entity_id}/properties'), ['catalog_entity', 'catalog_field']);
    assert.deepEqual(includeOf('/v1/catalog_entity_properties/{id}'), ['catalog_entity', 'catalog_field']);
    for (const route of ['services', 'environments', 'functionalities', 'incident_types', 'causes', 'teams']) assert.deepEqual(includeOf(`/v1/${route}/properties`), ['catalog'], route);
  });
});
