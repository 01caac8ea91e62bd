import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import { GroupCommitter } from './group-commit';

/** A committer whose groups are recorded; `failCommit` makes the next commit fail. */
function recording(options = { maxBatch: 3, maxInFlight: 1 }) {
  const groups: number[] = [];
  let failCommit = false;
  const committer = new GroupCommitter<string>(async (runs) => {
    groups.push(runs.length);
    for (const run of runs) await run('scope').catch(() => undefined); // the caller's savepoint
    await new Promise((r) => setTimeout(r, 5)); // the commit's flush
    if (failCommit) throw new Error('commit failed');
  }, options);
  return { committer, groups, failNextCommit: () => void (failCommit = true) };
}

test('requests arriving together share a commit, bounded by maxBatch; later ones form the next group', async () => {
  const { committer, groups } = recording();
  const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => committer.submit(async (scope) => `${scope} ${i}`)));
  assert.deepEqual(answers, Array.from({ length: 7 }, (_, i) => `scope ${i}`));
  assert.deepEqual(groups, [3, 3, 1]);
});

test('a failing request rejects alone; the others of its group are answered', async () => {
  const { committer } = recording();
  const outcomes = await Promise.allSettled([
    committer.submit(async () => 'first'),
    committer.submit(async () => {
      throw new Error('bad item');
    }),
    committer.submit(async () => 'third'),
  ]);
  assert.deepEqual(
    outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
    ['first', 'bad item', 'third'],
  );
});

test('no request is answered before its group committed; a failed commit rejects the whole group', async () => {
  const { committer, failNextCommit } = recording();
  failNextCommit();
  const outcomes = await Promise.allSettled([committer.submit(async () => 'a'), committer.submit(async () => 'b')]);
  assert.deepEqual(
    outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message),
    ['commit failed', 'commit failed'],
  );
});

test('up to maxInFlight groups commit at once', async () => {
  let active = 0;
  let most = 0;
  const committer = new GroupCommitter<void>(
    async (runs) => {
      most = Math.max(most, ++active);
      for (const run of runs) await run();
      await new Promise((r) => setTimeout(r, 10));
      active--;
    },
    { maxBatch: 1, maxInFlight: 2 },
  );
  await Promise.all(Array.from({ length: 6 }, () => committer.submit(async () => undefined)));
  assert.equal(most, 2);
});
