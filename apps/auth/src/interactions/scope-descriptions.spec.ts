import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { SCOPE_RESOURCES, SUPPORTED_SCOPES } from '@taproot/auth';
import { describeScope } from './scope-descriptions';

describe('consent page scope descriptions', () => {
  test('every supported scope has a plain description', () => {
    for (const scope of SUPPORTED_SCOPES) assert.notEqual(describeScope(scope).description, scope, scope);
    assert.equal(describeScope('ir.incident_types:read').description, 'Read incident response: incident types');
    assert.equal(describeScope('oc.alerts:write').description, 'Read and change on-call: alerts');
    assert.equal(describeScope('email').description, 'See your e-mail address');
  });

  test('meta scopes expand to what they include: all with AI, ir.all and oc.all without', () => {
    const all = describeScope('all').includes;
    assert.equal(all.length, Object.keys(SCOPE_RESOURCES).length);
    assert.ok(all.includes('Read and change AI: chat'));
    const ir = describeScope('ir.all').includes;
    assert.ok(ir.includes('Read and change incident response: incidents'));
    assert.ok(ir.every((d) => d.includes('incident response')));
    const oc = describeScope('oc.all').includes;
    assert.ok(oc.includes('Read and change on-call: shift overrides'));
    assert.ok(![...ir, ...oc].some((d) => d.includes('AI')));
    assert.deepEqual(describeScope('profile').includes, []);
  });
});
