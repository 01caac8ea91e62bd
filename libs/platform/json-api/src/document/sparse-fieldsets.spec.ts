import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { applySparseFieldsets, sparseFieldsetsOf } from './sparse-fieldsets';

const incident = {
  id: 'i1',
  type: 'incidents',
  attributes: { title: 'Down', status: 'started', summary: 'long text' },
  relationships: { roles: { data: [] }, services: { data: [] } },
  links: { self: '/v1/incidents/i1' },
};
const user = { id: '1', type: 'users', attributes: { email: 'a@example.test', full_name: 'A' }, relationships: {} };

describe('sparse fieldsets', () => {
  test('fields[TYPE] parameters: names per type, repeats merged, empty asks for none, others ignored', () => {
    const fieldsets = sparseFieldsetsOf({ 'fields[incidents]': ['id,title', 'status'], 'fields[users]': '', 'page[size]': '10', fields: 'x', 'fields[a][b]': 'c' });
    assert.deepEqual(
      [...(fieldsets ?? [])].map(([type, names]) => [type, [...names]]),
      [
        ['incidents', ['id', 'title', 'status']],
        ['users', []],
      ],
    );
    assert.equal(sparseFieldsetsOf({ include: 'roles' }), null);
    assert.equal(sparseFieldsetsOf(undefined), null);
  });

  test('keeps the named attributes and relationships of primary and included resources of the named types only', () => {
    const fieldsets = sparseFieldsetsOf({ 'fields[incidents]': 'id,title,roles', 'fields[users]': '' })!;
    const list = applySparseFieldsets({ data: [incident], included: [user], meta: { total_count: 1 } }, fieldsets);
    assert.deepEqual(list, {
      data: [{ id: 'i1', type: 'incidents', attributes: { title: 'Down' }, relationships: { roles: { data: [] } }, links: { self: '/v1/incidents/i1' } }],
      included: [{ id: '1', type: 'users', attributes: {}, relationships: {} }],
      meta: { total_count: 1 },
    });
    const single = applySparseFieldsets({ data: incident }, sparseFieldsetsOf({ 'fields[services]': 'name' })!);
    assert.deepEqual(single, { data: incident }, 'a type not named keeps every field');
  });

  test('leaves what is not a resource document alone', () => {
    const fieldsets = sparseFieldsetsOf({ 'fields[incidents]': 'title' })!;
    for (const other of [{ errors: [{ status: '400' }] }, { data: null }, 'text', null, { data: [{ id: 'x' }] }]) {
      assert.deepEqual(applySparseFieldsets(other, fieldsets), other);
    }
  });
});
