import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Jest runs from the workspace root (jest.config.mjs).
const changelog = readFileSync(join(process.cwd(), 'CHANGELOG.md'), 'utf8');

/** The spec's Versioning section: a dated changelog, entries tagged feat, fix, deprecated, breaking. */
describe('CHANGELOG.md', () => {
  const sections = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

  test('sections are dates, newest first, each once', () => {
    assert.ok(sections.length > 0);
    for (const date of sections) assert.match(date, /^\d{4}-\d{2}-\d{2}$/, `"${date}" is not a date`);
    assert.deepEqual([...sections].sort().reverse(), sections);
    assert.equal(new Set(sections).size, sections.length);
  });

  test('every entry is tagged feat, fix, deprecated or breaking', () => {
    const entries = changelog.split(/^## .+$/m).slice(1).flatMap((body) => [...body.matchAll(/^- (.*)$/gm)].map((m) => m[1]));
    assert.ok(entries.length > 0);
    for (const entry of entries) assert.match(entry, /^(feat|fix|deprecated|breaking): \S/, entry);
  });
});
