import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { bootstrapIfEmpty, createOrganization } from '../bootstrap/bootstrap-organization';
import { accountsForEmail, hashPassword, passwordMatches, PasswordPolicyError, setPassword, verifyPassword } from './credentials';

const clock = { now: () => new Date('2026-11-23T10:00:00.000Z') };

describe('sign-in credentials (scrypt, user_credentials)', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  test('the bootstrap owner gets BOOTSTRAP_ADMIN_EMAIL and a password on first start only', async () => {
    const created = await bootstrapIfEmpty(ds, null, { email: 'Admin@Example.test', password: 'correct horse' }, clock);
    assert.ok(created);
    const [owner] = await ds.query('SELECT email, role FROM users WHERE id = $1', [created.userId]);
    assert.deepEqual(owner, { email: 'Admin@Example.test', role: 'owner' });
    assert.equal(await verifyPassword(ds, 'admin@example.test', 'correct horse'), true);
    const [row] = await ds.query('SELECT email, password_hash FROM user_credentials');
    assert.equal(row.email, 'admin@example.test');
    assert.ok(!row.password_hash.includes('correct horse'));
    // A later start with other values changes nothing.
    assert.equal(await bootstrapIfEmpty(ds, null, { email: 'admin@example.test', password: 'another one' }, clock), null);
    assert.equal(await verifyPassword(ds, 'admin@example.test', 'another one'), false);
  });

  test('hashes carry their parameters and a random salt; verification is exact', async () => {
    const [a, b] = [await hashPassword('pass phrase'), await hashPassword('pass phrase')];
    assert.match(a, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    assert.notEqual(a, b, 'a fresh salt each time');
    assert.equal(await passwordMatches('pass phrase', a), true);
    assert.equal(await passwordMatches('pass phrase ', a), false);
    assert.equal(await passwordMatches('pass phrase', 'scrypt$1$2$3'), false, 'a malformed hash never matches');
    assert.equal(await passwordMatches('pass phrase', a.replace(/^scrypt/, 'md5')), false);
  });

  test('a hash made with other parameters still verifies (they are read from the hash)', async () => {
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('old password', salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    assert.equal(await passwordMatches('old password', stored), true);
  });

  test('set by e-mail case-insensitively, replaced on a second set; unknown addresses and wrong passwords fail', async () => {
    const email = `Person-${randomUUID().slice(0, 8)}@Example.test`;
    await setPassword(ds, email, 'first password', clock);
    assert.equal(await verifyPassword(ds, email.toLowerCase(), 'first password'), true);
    assert.equal(await verifyPassword(ds, ` ${email.toUpperCase()} `, 'first password'), true);
    await setPassword(ds, email.toLowerCase(), 'second password', clock);
    assert.equal(await verifyPassword(ds, email, 'first password'), false);
    assert.equal(await verifyPassword(ds, email, 'second password'), true);
    const [{ count }] = await ds.query('SELECT count(*)::int AS count FROM user_credentials WHERE email = lower($1)', [email]);
    assert.equal(count, 1);
    assert.equal(await verifyPassword(ds, 'nobody@example.test', 'second password'), false);
  });

  test('passwords shorter than 8 or longer than 1024 characters are refused', async () => {
    await assert.rejects(() => setPassword(ds, 'short@example.test', 'seven77', clock), PasswordPolicyError);
    await assert.rejects(() => setPassword(ds, 'long@example.test', 'x'.repeat(1025), clock), PasswordPolicyError);
    assert.equal(await verifyPassword(ds, 'long@example.test', 'x'.repeat(1025)), false);
  });

  test('the organizations of an e-mail are those with a user of that address, whatever its case', async () => {
    const email = `multi-${randomUUID().slice(0, 8)}@example.test`;
    const a = await ds.transaction((m) => createOrganization(m, { name: 'B org', ownerEmail: email }));
    const b = await ds.transaction((m) => createOrganization(m, { name: 'A org', ownerEmail: email.toUpperCase() }));
    await ds.transaction((m) => createOrganization(m, { name: 'Other org', ownerEmail: 'someone-else@example.test' }));
    const accounts = await accountsForEmail(ds, email);
    assert.deepEqual(
      accounts.map((x) => [x.organizationName, x.organizationId, x.userId]),
      [
        ['A org', b.organizationId, b.userId],
        ['B org', a.organizationId, a.userId],
      ],
    );
    assert.deepEqual(await accountsForEmail(ds, 'nobody@example.test'), []);
  });
});
