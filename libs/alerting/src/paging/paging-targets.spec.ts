import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { backoffMs, MAX_ATTEMPTS } from './paging-engine';
import { alertTargetsOf, reassignment } from './paging-targets';

describe('whom an alert pages', () => {
  test('notification_targets take precedence over the single pair; each target once, ids lower-cased; unknown types and incomplete pairs page nobody', () => {
    const policy = 'A1B2C3D4-0000-4000-8000-000000000001';
    assert.deepEqual(
      alertTargetsOf({
        notification_target_type: 'User',
        notification_target_id: '7',
        notification_targets: [{ type: 'EscalationPolicy', id: policy }, { type: 'EscalationPolicy', id: policy.toLowerCase() }, { type: 'Group', id: 'g' }, { type: 'Slack', id: 'x' }, { type: 'User' }],
      }),
      [{ type: 'EscalationPolicy', id: policy.toLowerCase() }, { type: 'Group', id: 'g' }],
    );
    assert.deepEqual(alertTargetsOf({ notification_target_type: 'User', notification_target_id: 7, notification_targets: [] }), [{ type: 'User', id: '7' }]);
    assert.deepEqual(alertTargetsOf({ notification_target_type: 'User', notification_target_id: null }), []);
  });

  test('a reassignment names the targets added and removed', () => {
    const before = { notification_target_type: 'User', notification_target_id: '1' };
    assert.deepEqual(reassignment(before, { notification_target_type: 'User', notification_target_id: '2' }), { added: [{ type: 'User', id: '2' }], removed: [{ type: 'User', id: '1' }] });
    assert.deepEqual(reassignment(before, before), { added: [], removed: [] });
  });

  test('failed sends wait 10 s, doubling, at most 5 minutes, over five attempts', () => {
    assert.deepEqual([1, 2, 3, 4, 10].map(backoffMs), [10_000, 20_000, 40_000, 80_000, 300_000]);
    assert.equal(MAX_ATTEMPTS, 5);
  });
});
