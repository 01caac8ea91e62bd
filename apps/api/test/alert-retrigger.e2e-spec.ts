import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { created, doc, unique } from './support/json-api';
import { MINUTE, usePagingWorld, type PagedUser } from './support/paging';

/**
 * Alert re-trigger rules at work (docs/alert-retrigger-rules.md): an acknowledged alert that fires
 * again (the same deduplication key) pages again when a rule matches it within its timeout, and
 * folds in silently otherwise, as without rules.
 */
describe('alert re-trigger rules: an acknowledged alert firing again', () => {
  const w = usePagingWorld();

  const fire = async (policy: string, key: string) => {
    const res = await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Disk full'), deduplication_key: key, notification_target_type: 'EscalationPolicy', notification_target_id: policy, data: { host: 'db-1' } }));
    // 201 for a new alert, 200 for one folded into the alert with its key.
    assert.ok([200, 201].includes(res.status), JSON.stringify(res.body));
    return res.body.data as { id: string; attributes: { status: string } };
  };
  /** An alert paging `user`, mailed once and acknowledged. */
  const acknowledged = async (user: PagedUser, policy: string, key: string) => {
    const alert = await fire(policy, key);
    await w.engine.tick();
    assert.equal(w.mailsTo(user.email).length, 1);
    assert.equal((await w.send('POST', `/v1/alerts/${alert.id}/acknowledge`, {})).status, 200);
    return alert.id;
  };
  const rule = async (attributes: Record<string, unknown>) => created(await w.send('POST', '/v1/alert_retrigger_rules', doc('alert_retrigger_rules', { name: unique('Again'), ...attributes }))).id as string;

  test('with a matching rule it is triggered and pages again from level 1; its timeline names the rule', async () => {
    const user = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [user.id] }]);
    const id = await rule({ timeout_minutes: 30, conditions: [{ kind: 'payload', property_field_name: '$.host', values: ['db-1'] }] });
    const key = unique('disk');
    const alertId = await acknowledged(user, policy, key);
    try {
      const again = await fire(policy, key);
      assert.equal(again.id, alertId, 'still one alert');
      assert.equal(again.attributes.status, 'triggered');
      await w.engine.tick();
      assert.equal(w.mailsTo(user.email).length, 2, 'paged again');
      const events = (await w.send('GET', `/v1/alerts/${alertId}/events?page[size]=100`)).body.data as { attributes: { details: string } }[];
      assert.ok(events.some((e) => /re-triggered by the alert re-trigger rule/.test(e.attributes.details)));
    } finally {
      await w.send('DELETE', `/v1/alert_retrigger_rules/${id}`);
    }
  });

  test('without a matching rule, or past its timeout, it folds in silently', async () => {
    const user = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [user.id] }]);
    const id = await rule({ timeout_minutes: 30, conditions: [{ kind: 'payload', property_field_name: '$.host', values: ['db-2'] }] });
    try {
      const key = unique('disk');
      await acknowledged(user, policy, key);
      assert.equal((await fire(policy, key)).attributes.status, 'acknowledged', 'no rule matches db-1');
      await w.send('PATCH', `/v1/alert_retrigger_rules/${id}`, doc('alert_retrigger_rules', { conditions: [] }));
      await w.advance(31 * MINUTE);
      assert.equal((await fire(policy, key)).attributes.status, 'acknowledged', 'the rule matches, but its 30 minutes from the acknowledgement have passed');
      await w.engine.tick();
      assert.equal(w.mailsTo(user.email).length, 1);
    } finally {
      await w.send('DELETE', `/v1/alert_retrigger_rules/${id}`);
    }
  });
});
