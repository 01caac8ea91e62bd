import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import { mergeErrorTables } from './domain-error';

test('error tables merge; a code shared by two contexts must be answered alike', () => {
  const a = { LAST_OWNER: { status: 409, title: 'Conflict' }, FORBIDDEN: { status: 403, title: 'Forbidden' } };
  const b = { NOT_A_NOTE: { status: 422, title: 'Not a note' }, FORBIDDEN: { status: 403, title: 'Forbidden' } };
  assert.deepEqual(Object.keys(mergeErrorTables([a, b])).sort(), ['FORBIDDEN', 'LAST_OWNER', 'NOT_A_NOTE']);
  assert.throws(() => mergeErrorTables([a, { FORBIDDEN: { status: 401, title: 'Unauthorized' } }]), /FORBIDDEN is answered 403 "Forbidden" by one context and 401 "Unauthorized" by another/);
});
