import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { isWebUrl, oneLine, truncate } from './notification-text';

describe('notification text', () => {
  test('truncate keeps short text, cuts long text to the limit with the ellipsis, never halves an emoji', () => {
    assert.equal(truncate('disk full', 9), 'disk full');
    assert.equal(truncate('disk full', 8), 'disk fu…');
    assert.equal(truncate('disk full', 8, '...'), 'disk ...');
    assert.equal(truncate('ab🔥cd', 4), 'ab…', 'the cut would fall inside the emoji: it goes whole');
    assert.equal(truncate('ab🔥cd', 5), 'ab🔥…');
  });

  test('oneLine folds new lines, tabs and control characters into single spaces', () => {
    assert.equal(oneLine('  disk\r\n\tfull\u0000\u0007now\u007f '), 'disk full now');
  });

  test('only http(s) URLs are links', () => {
    assert.equal(isWebUrl('https://grafana.example.com/d/1'), true);
    assert.equal(isWebUrl('HTTP://example.com'), true);
    for (const url of [null, 'javascript:alert(1)', 'data:text/html,x', 'ftp://example.com', 'https://exa mple.com']) assert.equal(isWebUrl(url), false, String(url));
  });
});
