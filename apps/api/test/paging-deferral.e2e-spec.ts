import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { created, doc, unique } from './support/json-api';
import { MINUTE, usePagingWorld, type PagedUser } from './support/paging';

const EVERY_DAY = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
const hhmm = (at: Date) => at.toISOString().slice(11, 16);

/**
 * Deferral paths (docs/escalation-policies.md, "How the engine chooses a path"): an alert arriving
 * inside a deferral path's window pages nobody until the window ends, then follows the path the
 * deferral names (execute_path) or the one its rules choose then (re_evaluate).
 */
describe('paging: deferral paths', () => {
  const w = usePagingWorld();

  /** A policy paging `day` on its default path and `night` on a path only execute_path reaches, deferred for the next hour. */
  async function deferringPolicy(behavior: 'execute_path' | 're_evaluate', day: PagedUser, night: PagedUser) {
    const policy = created(await w.send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('Deferring') }))).id as string;
    const paths = `/v1/escalation_policies/${policy}/escalation_paths`;
    const path = async (attributes: Record<string, unknown>, user?: PagedUser) => {
      const id = created(await w.send('POST', paths, doc('escalation_paths', { name: unique('Path'), ...attributes }))).id as string;
      if (user) {
        const level = { delay: 5, notification_target_params: [{ type: 'user', id: String(user.id) }], escalation_policy_path_id: id };
        created(await w.send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', level)));
      }
      return id;
    };
    await path({ default: true, position: 2 }, day);
    // Taken only when an alert has incidents: reached here through execute_path alone.
    const nightPath = await path({ position: 3, rules: [{ rule_type: 'related_incidents', operator: 'is_set' }] }, night);
    const start = w.now();
    const window = { rule_type: 'deferral_window', time_zone: 'Etc/UTC', time_blocks: [{ ...EVERY_DAY, start_time: hhmm(start), end_time: hhmm(new Date(start.getTime() + 60 * MINUTE)) }] };
    await path({ path_type: 'deferral', position: 1, rules: [window], after_deferral_behavior: behavior, ...(behavior === 'execute_path' ? { after_deferral_path_id: nightPath } : {}) });
    return policy;
  }

  const alertTo = async (policy: string) => {
    const res = await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Disk full'), notification_target_type: 'EscalationPolicy', notification_target_id: policy }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const timeline = async (alertId: string) => {
    const res = await w.send('GET', `/v1/alerts/${alertId}/events?page[size]=100`);
    return (res.body.data as { attributes: { action: string; details: string } }[]).map((e) => e.attributes);
  };

  test('inside the window nobody is paged; at its end the path execute_path names pages, once', async () => {
    const [day, night] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await deferringPolicy('execute_path', day, night);
    const alertId = await alertTo(policy);

    await w.engine.tick();
    assert.equal(w.mailsTo(day.email).length + w.mailsTo(night.email).length, 0, 'deferred: nobody paged');
    const deferred = (await timeline(alertId)).find((e) => e.action === 'deferred');
    assert.ok(deferred, 'the timeline says why nobody was paged');
    assert.match(deferred.details, /until .*then path/);

    await w.advance(59 * MINUTE);
    assert.equal(w.mailsTo(night.email).length, 0, 'still inside the window');
    await w.advance(1 * MINUTE);
    assert.equal(w.mailsTo(night.email).length, 1, 'the window ended: the named path pages');
    assert.equal(w.mailsTo(day.email).length, 0);
    await w.advance(1 * MINUTE);
    assert.equal(w.mailsTo(night.email).length, 1, 'once');
  });

  test('re_evaluate: at the end of the window the rules choose again (here the default path)', async () => {
    const [day, night] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await deferringPolicy('re_evaluate', day, night);
    await alertTo(policy);

    await w.engine.tick();
    assert.equal(w.mailsTo(day.email).length, 0);
    await w.advance(60 * MINUTE);
    assert.equal(w.mailsTo(day.email).length, 1);
    assert.equal(w.mailsTo(night.email).length, 0);
  });

  test('an alert arriving outside the window is paged at once', async () => {
    const [day, night] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await deferringPolicy('execute_path', day, night);
    await w.advance(2 * 60 * MINUTE);
    await alertTo(policy);
    await w.engine.tick();
    assert.equal(w.mailsTo(day.email).length, 1);
  });

  test('acknowledging a deferred alert ends its deferral: nobody is paged when the window ends', async () => {
    const [day, night] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await deferringPolicy('execute_path', day, night);
    const alertId = await alertTo(policy);
    await w.engine.tick();
    const ack = await w.send('POST', `/v1/alerts/${alertId}/acknowledge`, {});
    assert.equal(ack.status, 200, JSON.stringify(ack.body));
    await w.advance(61 * MINUTE);
    assert.equal(w.mailsTo(day.email).length + w.mailsTo(night.email).length, 0);
  });
});
