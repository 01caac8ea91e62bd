import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { loadConfig } from '@taproot/config';
import { PageSessions } from './public-page.session';

const page = { id: '5b0e5c1e-0000-4000-8000-000000000001', organizationId: '5b0e5c1e-0000-4000-8000-000000000002' };
const clock = { now: () => new Date('2026-11-26T12:00:00Z') };
const sessions = (publicUrl: string) => new PageSessions(loadConfig({ PUBLIC_URL: publicUrl }), clock);

describe('status page session cookies', () => {
  test('Secure when the public URL is https, not on plain http (a browser would drop it there)', async () => {
    assert.match(await sessions('https://status.example.com').open(page, '42'), /; Secure/);
    assert.match(sessions('https://status.example.com').close(page.id), /; Secure/);
    assert.doesNotMatch(await sessions('http://127.0.0.1:3000').open(page, '42'), /Secure/);
  });

  test('a session read back opens its own page only', async () => {
    const s = sessions('https://status.example.com');
    const cookie = (await s.open(page, '42')).split(';')[0];
    const request = { headers: { cookie } };
    assert.equal(await s.holds(request, page), true);
    assert.equal(await s.holds(request, { ...page, organizationId: '5b0e5c1e-0000-4000-8000-000000000003' }), false, 'another organization');
    assert.equal(await s.holds({ headers: {} }, page), false, 'no cookie');
  });
});
