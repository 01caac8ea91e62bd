import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@taproot/messaging';
import type { TestApi, TestOrganization, TestResponse } from '../../src/testing';

export type Attributes = Record<string, unknown>;
/** A request document of one resource. */
export const doc = (type: string, attributes: Attributes) => ({ data: { type, attributes } });

/** Reading the answers of the e2e specs: names made unique, list ids, error pointers and codes. */
export const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;
export const ids = (res: TestResponse): string[] => res.body.data.map((d: { id: string }) => d.id);
export const pointers = (res: TestResponse): (string | undefined)[] => res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
export const errorCodes = (res: TestResponse): string[] => res.body.errors.map((e: { status: string; code: string; title: string }) => `${e.status}/${e.code}/${e.title}`);

/** The record a create answered; a failure showing the answer unless it is a 201. */
export function created(res: TestResponse) {
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

/** The events written for a record, in order (the outbox keeps them an hour). */
export async function outboxEvents(api: TestApi, aggregateId: string): Promise<DomainEvent[]> {
  const rows = (await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [aggregateId])) as { event: DomainEvent }[];
  return rows.map((r) => r.event);
}

/** Types of the events written for a record, in order. */
export async function outboxTypes(api: TestApi, aggregateId: string): Promise<string[]> {
  return (await outboxEvents(api, aggregateId)).map((e) => e.type);
}

/** A key whose role runs incidents but may not read private ones (the seeded roles all read them). */
export async function publicOnlyKey(api: TestApi, org: TestOrganization): Promise<string> {
  const body = { data: { type: 'roles', attributes: { name: unique('Public only'), incidents_permissions: ['create', 'read', 'update', 'delete'] } } };
  const role = created(await api.request('POST', '/v1/roles', { token: org.token, body }));
  return api.issueApiKey(org.organizationId, { kind: 'global', roleId: role.id });
}
