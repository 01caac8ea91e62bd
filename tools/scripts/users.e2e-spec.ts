import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi } from '../../apps/api/src/testing';
import { createScratchDatabase, openTestDataSource } from '@taproot/persistence';
import { taproot, type Ran } from './cli-testing';

/** stdout is exactly one JSON object. */
function jsonOf(ran: Ran) {
  assert.equal(ran.code, 0, ran.stderr);
  const lines = ran.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `stdout must be exactly one JSON object, got:\n${ran.stdout}`);
  return JSON.parse(lines[0]);
}

describe('npm run taproot -- user (people of an organization)', () => {
  test('user add / list / remove through the identity commands: events in the outbox, users served by GET /v1/users, last owner kept', async () => {
    const env = { DATABASE_URL: await createScratchDatabase() };
    const org = jsonOf(await taproot(['org', 'create', '--name', 'People org', '--owner-email', 'boss@acme.test', '--json'], env));
    const orgId: string = org.organization_id;

    const ada = jsonOf(await taproot(['user', 'add', '--org', orgId, '--email', 'ada@acme.test', '--name', 'Ada Lovelace', '--json'], env));
    expect(ada).toEqual({ user_id: expect.any(Number), organization_id: orgId, email: 'ada@acme.test', name: 'Ada Lovelace', role: 'User' });
    const grace = jsonOf(await taproot(['user', 'add', '--org', orgId, '--email', 'grace@acme.test', '--role', 'admin', '--json'], env));
    assert.equal(grace.role, 'Admin');
    const second = jsonOf(await taproot(['user', 'add', '--org', orgId, '--email', 'second@acme.test', '--role', 'Owner', '--json'], env));
    assert.equal(second.role, 'Owner');

    const duplicate = await taproot(['user', 'add', '--org', orgId, '--email', 'ADA@acme.test'], env);
    assert.equal(duplicate.code, 1, duplicate.stderr);
    assert.match(duplicate.stderr, /user add failed: A user with email "ADA@acme.test" already exists in this organization/);
    const badRole = await taproot(['user', 'add', '--org', orgId, '--email', 'x@acme.test', '--role', 'wizard'], env);
    assert.equal(badRole.code, 1);
    assert.match(badRole.stderr, /role "wizard" is not a role of this organization \(its roles: Owner, Admin, User, Observer, No Access\)/);
    const unknownOrg = await taproot(['user', 'add', '--org', '00000000-0000-4000-8000-000000000000', '--email', 'x@acme.test'], env);
    assert.equal(unknownOrg.code, 1);
    assert.match(unknownOrg.stderr, /no organization with id/);

    const listed = jsonOf(await taproot(['user', 'list', '--org', orgId, '--json'], env));
    expect(listed.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['boss@acme.test', 'Owner'],
      ['ada@acme.test', 'User'],
      ['grace@acme.test', 'Admin'],
      ['second@acme.test', 'Owner'],
    ]);

    const db = await openTestDataSource(env.DATABASE_URL);
    try {
      // The roles follow the kind (Admin: on-call Admin), and each add is a user.created event in the outbox.
      const [row] = await db.query(
        `SELECT u.role, r.system_role AS ir, o.system_role AS oc FROM users u JOIN roles r ON r.id = u.role_id JOIN on_call_roles o ON o.id = u.on_call_role_id WHERE u.id = $1`,
        [grace.user_id],
      );
      expect(row).toEqual({ role: 'admin', ir: 'admin', oc: 'admin' });
      const events = await db.query(`SELECT event FROM outbox WHERE event->>'type' = 'user.created' ORDER BY seq`);
      expect(events.map((e: { event: { aggregate_id: string; actor: unknown; payload: { email: string } } }) => [e.event.aggregate_id, e.event.payload.email, e.event.actor])).toEqual([
        [String(ada.user_id), 'ada@acme.test', { kind: 'system', id: null }],
        [String(grace.user_id), 'grace@acme.test', { kind: 'system', id: null }],
        [String(second.user_id), 'second@acme.test', { kind: 'system', id: null }],
      ]);
    } finally {
      await db.destroy();
    }

    // The api serves them with the organization's key, and relays the events to the audit log.
    const api = await startTestApi({ databaseUrl: env.DATABASE_URL });
    try {
      const users = await api.request('GET', '/v1/users?page[size]=10', { token: org.api_key });
      assert.equal(users.status, 200, JSON.stringify(users.body));
      const ada200 = users.body.data.find((u: { id: string }) => u.id === String(ada.user_id));
      expect(ada200.attributes).toMatchObject({ email: 'ada@acme.test', first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' });
    } finally {
      await api.close();
    }

    const removed = jsonOf(await taproot(['user', 'remove', '--org', orgId, '--email', 'Ada@acme.test', '--json'], env));
    expect(removed).toEqual({ user_id: ada.user_id, organization_id: orgId, email: 'ada@acme.test' });
    const gone = await taproot(['user', 'remove', '--org', orgId, '--email', 'ada@acme.test'], env);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /No user with e-mail ada@acme.test in organization/);
    // Two owners: one may go; the last one stays.
    jsonOf(await taproot(['user', 'remove', '--org', orgId, '--user', String(second.user_id), '--json'], env));
    const last = await taproot(['user', 'remove', '--org', orgId, '--email', 'boss@acme.test'], env);
    assert.equal(last.code, 1);
    assert.match(last.stderr, /is the organization's only owner and cannot be deleted/);
    const text = await taproot(['user', 'list', '--org', orgId], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /boss@acme\.test .*\[Owner\]\n.*grace@acme\.test .*\[Admin\]\n$/);
  });

  test('scim token prints the token once (stored as its hash); a second one replaces it', async () => {
    const env = { DATABASE_URL: await createScratchDatabase() };
    const org = jsonOf(await taproot(['org', 'create', '--name', 'SCIM org', '--json'], env));
    const first = jsonOf(await taproot(['scim', 'token', '--org', org.organization_id, '--json'], env));
    expect(Object.keys(first).sort()).toEqual(['base_path', 'organization_id', 'scim_token']);
    expect(first).toMatchObject({ organization_id: org.organization_id, base_path: '/scim/v2', scim_token: expect.stringMatching(/^scim_[A-Za-z0-9_-]{43}$/) });
    const second = await taproot(['scim', 'token', '--org', org.organization_id], env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /shown only once; the previous one no longer works/);
    const db = await openTestDataSource(env.DATABASE_URL);
    try {
      const rows = await db.query('SELECT token_hash, revoked_at IS NOT NULL AS revoked FROM scim_tokens WHERE organization_id = $1 ORDER BY created_at', [org.organization_id]);
      expect(rows.map((r: { revoked: boolean }) => r.revoked)).toEqual([true, false]);
      assert.ok(!JSON.stringify(rows).includes(first.scim_token), 'only the hash is stored');
    } finally {
      await db.destroy();
    }
  });

  test('bad usage exits 2 naming the option', async () => {
    const env = { DATABASE_URL: 'postgres://unused@127.0.0.1:1/none' };
    const cases: [string[], RegExp][] = [
      [['user', 'add', '--email', 'a@b.test'], /user add needs --org/],
      [['user', 'add', '--org', 'o'], /user add needs --email/],
      [['user', 'add', '--org', 'o', '--email', 'nope'], /--email must be an email address, got "nope"/],
      [['user', 'add', '--org', 'o', '--email', 'a@b.test', '--role', ' '], /--role needs a role name/],
      [['user', 'remove', '--org', 'o'], /exactly one of --user <user-id> or --email <email>/],
      [['user', 'remove', '--org', 'o', '--user', '1', '--email', 'a@b.test'], /exactly one of --user/],
      [['user', 'remove', '--org', 'o', '--user', 'ada'], /--user must be a user id \(a whole number\), got "ada"/],
      [['user', 'list'], /user list needs --org/],
      [['scim', 'token'], /scim token needs --org/],
    ];
    for (const [args, message] of cases) {
      const ran = await taproot(args, env);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(ran.stderr, message, args.join(' '));
      assert.equal(ran.stdout, '');
    }
  });
});
