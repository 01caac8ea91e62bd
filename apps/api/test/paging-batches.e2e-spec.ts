import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { MAILER } from '@taproot/runtime';
import { DataSource, type QueryRunner } from 'typeorm';
import { eventually } from '../src/testing';
import { created, doc, unique } from './support/json-api';
import { MINUTE, usePagingWorld, type PagedUser, type PagingWorld } from './support/paging';

/**
 * The engine fires its due steps in batches, a few statements per batch (docs/paging.md,
 * "Firing"): what one pass fires for many alerts is what firing them one by one would do.
 */
describe('paging: steps fired in batches', () => {
  const w = usePagingWorld();

  const alertTo = async (type: string, id: string) => {
    const summary = unique('Checkout is down');
    const res = await w.send('POST', '/v1/alerts', doc('alerts', { summary, notification_target_type: type, notification_target_id: id }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { id: res.body.data.id as string, summary };
  };
  const pagingLines = async (alertId: string) => {
    const res = await w.send('GET', `/v1/alerts/${alertId}/events?page[size]=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.data as { attributes: { action: string; escalation_level: number | null } }[]).map((e) => e.attributes).filter((e) => e.action === 'escalation_policy_paged');
  };

  test('one pass fires every alert of a storm: each is mailed once, gets its timeline line and its next level', async () => {
    const [first, second] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await w.policyOf([{ users: [first.id], delay: 5 }, { users: [second.id] }]);
    const alerts = [];
    for (let i = 0; i < 12; i++) alerts.push(await alertTo('EscalationPolicy', policy));

    const pass = (await w.engine.tick()) as { fired: number; sent: number };
    assert.equal(pass.fired, 12);
    assert.deepEqual(w.mailsTo(first.email).map((m) => m.subject.split(': ').pop()).sort(), alerts.map((a) => a.summary).sort(), 'one mail per alert, each about its alert');
    for (const alert of alerts) assert.deepEqual((await pagingLines(alert.id)).map((l) => l.escalation_level), [1]);

    await w.advance(5 * MINUTE);
    assert.equal(w.mailsTo(second.email).length, 12, 'every alert reached level 2, once');
    await w.advance(5 * MINUTE);
    assert.equal(w.mailsTo(first.email).length + w.mailsTo(second.email).length, 24, 'nothing fired twice');
  });

  test('a cycle level takes turns across the alerts one pass fires, and the next pass goes on from there', async () => {
    const users = [await w.userWithEmail(), await w.userWithEmail(), await w.userWithEmail()];
    const policy = created(await w.send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('Cycle') }))).id as string;
    const path = created(await w.send('POST', `/v1/escalation_policies/${policy}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true }))).id as string;
    const targets = users.map((u) => ({ type: 'user', id: String(u.id) }));
    created(
      await w.send(
        'POST',
        `/v1/escalation_policies/${policy}/escalation_levels`,
        doc('escalation_levels', { delay: 5, notification_target_params: targets, paging_strategy_configuration_strategy: 'cycle', escalation_policy_path_id: path }),
      ),
    );
    for (let i = 0; i < 3; i++) await alertTo('EscalationPolicy', policy);

    assert.equal(((await w.engine.tick()) as { fired: number }).fired, 3, 'the three alerts fire in one pass');
    assert.deepEqual(
      users.map((u) => w.mailsTo(u.email).length),
      [1, 1, 1],
      'each alert paged the next user in turn, not the same one three times',
    );
    // The next pass counts the turns taken before it (in the database) and goes round again.
    for (let i = 0; i < 4; i++) await alertTo('EscalationPolicy', policy);
    assert.equal(((await w.engine.tick()) as { fired: number }).fired, 4);
    assert.deepEqual(
      users.map((u) => w.mailsTo(u.email).length),
      [3, 2, 2],
      'the fourth to seventh alerts took the turns after the first three',
    );
  });

  test('a step that cannot fire does not hold up the rest of its batch; it stays due and is tried again', async () => {
    const user = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [user.id] }]);
    const good = [await alertTo('EscalationPolicy', policy), await alertTo('EscalationPolicy', policy)];
    const bad = await alertTo('EscalationPolicy', policy);
    // The database refuses the third alert's notifications (a fault injected with a trigger), so its
    // step fails wherever it is fired: alone, or in a batch with the others.
    const db = w.api.app.get(DataSource);
    await db.query(`CREATE FUNCTION refuse_paging_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await db.query(`CREATE TRIGGER refuse_paging_test BEFORE INSERT ON alert_notifications FOR EACH ROW WHEN (NEW.alert_id = '${bad.id}') EXECUTE FUNCTION refuse_paging_test()`);

    await w.engine.tick();
    assert.equal(w.mailsTo(user.email).length, 2, 'the two good alerts were paged');
    for (const alert of good) assert.equal((await pagingLines(alert.id)).length, 1);
    const unfired = async () => (await db.query('SELECT count(*)::int AS n FROM alert_paging_steps WHERE alert_id = $1 AND fired_at IS NULL', [bad.id]))[0].n as number;
    assert.equal(await unfired(), 1, 'the failing step is still due');
    assert.deepEqual(await pagingLines(bad.id), [], 'nothing of it was written');

    // Once the database takes it, it fires on the next pass.
    await db.query('DROP TRIGGER refuse_paging_test ON alert_notifications');
    await db.query('DROP FUNCTION refuse_paging_test');
    await w.engine.tick();
    assert.equal(await unfired(), 0);
    assert.equal(w.mailsTo(user.email).length, 3);
  });
});

/**
 * Waits until another session waits for a lock `holder` holds. Only `holder`'s own waiters count:
 * any lock wait in the cluster (another test file's, in another database, as the full run's
 * second Jest worker makes) would end the wait before the engine or the request reached the lock.
 */
async function blockedBy(db: DataSource, holder: QueryRunner, message: string): Promise<void> {
  const [{ pid }] = await holder.query('SELECT pg_backend_pid() AS pid');
  for (let waited = 0; ; waited += 10) {
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [pid]);
    if (n > 0) return;
    assert.ok(waited < 10_000, message);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Posts an alert paging `policy`; answers its id. */
async function alertPaging(w: PagingWorld, policy: string): Promise<string> {
  const res = await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Checkout is down'), notification_target_type: 'EscalationPolicy', notification_target_id: policy }));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id as string;
}

/** Runs `work` in a transaction of another session (what a concurrent writer holds), committed at its end. */
async function inOtherTransaction(w: PagingWorld, work: (tx: QueryRunner, db: DataSource) => Promise<void>): Promise<void> {
  const db = w.api.app.get(DataSource);
  const tx = db.createQueryRunner();
  await tx.connect();
  try {
    await tx.startTransaction();
    await work(tx, db);
    await tx.commitTransaction();
  } finally {
    await tx.release();
  }
}

describe('paging: recording sends beside an alert change', () => {
  const w = usePagingWorld({ failFirstSessions: 1 });

  test('a send recorded while the alert is being resolved waits for it instead of deadlocking with it', async () => {
    const user = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [user.id] }]);
    const alertId = await alertPaging(w, policy);
    await w.engine.tick(); // level 1 fired; its e-mail refused once (421), to be retried in 10 s
    let pass: Promise<unknown> = Promise.resolve();
    await inOtherTransaction(w, async (change, db) => {
      // An alert change as the API makes it: the alert locked first, then its unsent notifications cancelled.
      await change.query('SELECT id FROM alerts WHERE id = $1 FOR UPDATE', [alertId]);
      pass = w.advance(10_000); // the retry is sent, then recorded
      await blockedBy(db, change, 'the recording never waited for the alert');
      // Without the lock order this waits for the recording, which waits for this transaction: a
      // deadlock (PostgreSQL would end it after a second by failing the recording). With it, nothing
      // here waits: a lock wait at all fails the statement.
      await change.query("SET LOCAL lock_timeout = '300ms'");
      await change.query(`UPDATE alert_notifications SET status = 'cancelled' WHERE alert_id = $1 AND status = 'pending'`, [alertId]);
    });
    await pass;
    assert.equal(w.mailsTo(user.email).length, 1);
    const [row] = await w.api.app.get(DataSource).query('SELECT status FROM alert_notifications WHERE alert_id = $1', [alertId]);
    assert.equal(row.status, 'sent', 'the send that happened is recorded');
  });
});

describe('paging: an acknowledge link beside a send being recorded', () => {
  const w = usePagingWorld();

  test('a link clicked while its alert is held waits for the alert before touching the notification', async () => {
    const user = await w.userWithEmail();
    const policy = await w.policyOf([{ users: [user.id] }]);
    const alertId = await alertPaging(w, policy);
    await w.engine.tick();
    const link = w.ackLinkOf(w.mailsTo(user.email)[0].text);
    let click: ReturnType<typeof w.api.request> | undefined;
    await inOtherTransaction(w, async (recording, db) => {
      // What the engine's send recording holds and then takes: the alert, then the notification.
      await recording.query('SELECT id FROM alerts WHERE id = $1 FOR KEY SHARE', [alertId]);
      click = w.api.request('GET', link);
      await blockedBy(db, recording, 'the acknowledgement never waited for the alert');
      await recording.query("SET LOCAL lock_timeout = '300ms'");
      await recording.query('UPDATE alert_notifications SET attempts = attempts WHERE alert_id = $1', [alertId]);
    });
    assert.equal((await click!).status, 200);
  });
});

describe("paging: a level due while its alert's sends are being recorded", () => {
  const w = usePagingWorld();

  test('fires in that pass: the firing claim does not pass over an alert held FOR KEY SHARE', async () => {
    const [first, second] = [await w.userWithEmail(), await w.userWithEmail()];
    const policy = await w.policyOf([{ users: [first.id], delay: 5 }, { users: [second.id] }]);
    const alertId = await alertPaging(w, policy);
    await w.engine.tick();
    await inOtherTransaction(w, async (recording) => {
      // What recording a send of this alert holds until its commit (and every insert of one of its events).
      await recording.query('SELECT id FROM alerts WHERE id = $1 FOR KEY SHARE', [alertId]);
      const pass = (await w.advance(5 * MINUTE)) as { fired: number };
      assert.equal(pass.fired, 1, 'level 2 fired in the pass it fell due in, not a pass later');
      assert.equal(w.mailsTo(second.email).length, 1);
    });
  });
});

describe('paging: a slow send beside the next sending pass', () => {
  let held: string | null = null;
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const w = usePagingWorld({ beforeRecipient: (address) => (address === held ? gate : undefined) });

  test('a notification fired while an earlier one is still being sent is sent without waiting for it', async () => {
    const [slow, quick] = [await w.userWithEmail(), await w.userWithEmail()];
    held = slow.email;
    const page = async (user: PagedUser) => {
      const alertId = await alertPaging(w, await w.policyOf([{ users: [user.id] }]));
      await w.engine.fireDue();
      // The sending loop's pass: it claims and starts the sends, and returns.
      await w.engine.sendPass();
      return alertId;
    };
    const slowAlert = await page(slow);
    await page(quick);
    await w.smtp.waitFor((m) => m.to.includes(quick.email));
    assert.equal(w.mailsTo(slow.email).length, 0, 'the first e-mail is still held by the relay');

    release();
    await w.smtp.waitFor((m) => m.to.includes(slow.email));
    const db = w.api.app.get(DataSource);
    const status = async () => ((await db.query('SELECT status FROM alert_notifications WHERE alert_id = $1', [slowAlert])) as { status: string }[])[0].status;
    assert.equal(await eventually(status, (s) => s === 'sent'), 'sent', 'the held send is recorded once it went through');
  });
});

describe('paging: one SMTP pool per process', () => {
  const w = usePagingWorld();

  test("identity's verification mails and the pages share the runtime's mailer: one connection to the relay", async () => {
    const [paged, other] = [await w.userWithEmail(), await w.userWithEmail()];
    const address = `${unique('verify').replace(' ', '-')}@example.test`;
    created(await w.send('POST', `/v1/users/${other.id}/email_addresses`, doc('user_email_addresses', { email: address })));
    await eventually(async () => w.smtp.messages.filter((m) => m.to.includes(address)), (mails) => mails.length === 1);
    await w.send('POST', '/v1/alerts', doc('alerts', { summary: unique('Checkout is down'), notification_target_type: 'EscalationPolicy', notification_target_id: await w.policyOf([{ users: [paged.id] }]) }));
    await w.engine.tick();
    assert.equal(w.mailsTo(paged.email).length, 1);
    // Two mailers (two pools) would each have opened a connection of their own.
    assert.equal(w.smtp.sessions, 1, 'both mails went over one pooled connection');
    assert.equal(w.api.app.get(MAILER), w.api.runtime.mailer);
  });
});
