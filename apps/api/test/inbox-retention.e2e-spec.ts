import { afterAll as after, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createScratchDatabase, openTestDataSource } from '@taproot/persistence';
import { eventually, startTestApi, type TestApi } from '../src/testing';

/**
 * The api prunes the inbox (docs/architecture.md, "Read path"): started, it deletes the rows older
 * than INBOX_RETENTION_HOURS at once (and once a minute after), and keeps the younger ones.
 */
describe('inbox retention in the api', () => {
  let api: TestApi | undefined;
  after(() => api?.close());

  test('inbox rows older than the retention are gone once the api runs; younger ones stay', async () => {
    const url = await createScratchDatabase();
    const consumer = `retention-${randomUUID()}`;
    const [old, young] = [randomUUID(), randomUUID()];
    const ds = await openTestDataSource(url);
    await ds.query(`INSERT INTO inbox (consumer, event_id, processed_at) VALUES ($1, $2, now() - interval '3 hours'), ($1, $3, now() - interval '30 minutes')`, [consumer, old, young]);
    await ds.destroy();

    api = await startTestApi({ databaseUrl: url, env: { INBOX_RETENTION_HOURS: '1' } });
    const left = async () =>
      ((await api!.runtime.dataSource.query('SELECT event_id FROM inbox WHERE consumer = $1', [consumer])) as { event_id: string }[]).map((r) => r.event_id);
    assert.deepEqual(await eventually(left, (ids) => ids.length === 1, 10_000), [young]);
  });
});
