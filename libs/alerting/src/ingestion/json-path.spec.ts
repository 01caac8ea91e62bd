import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { evaluateJsonPath, JsonPathError, parseJsonPath } from './json-path';

const payload = {
  alert: { title: 'CPU high', 'runbook url': 'https://runbooks/cpu', count: 0, ok: false },
  alerts: [{ labels: { severity: 'critical' } }, { labels: { severity: 'warning' } }],
  'odd.key': 'dotted',
};

describe('JSON Path subset', () => {
  test('parses dot, bracket-quoted and index steps', () => {
    assert.deepEqual(parseJsonPath('$'), []);
    assert.deepEqual(parseJsonPath('$.alerts[0].labels.severity'), ['alerts', 0, 'labels', 'severity']);
    assert.deepEqual(parseJsonPath(`$['alert']["runbook url"]`), ['alert', 'runbook url']);
    assert.deepEqual(parseJsonPath(`$['it\\'s']`), ["it's"]);
    assert.deepEqual(parseJsonPath('$.items[-1]'), ['items', -1]);
  });

  test('evaluates to the value, including falsy ones, or undefined', () => {
    assert.equal(evaluateJsonPath(payload, '$.alert.title'), 'CPU high');
    assert.equal(evaluateJsonPath(payload, '$.alert.count'), 0);
    assert.equal(evaluateJsonPath(payload, '$.alert.ok'), false);
    assert.equal(evaluateJsonPath(payload, `$.alert['runbook url']`), 'https://runbooks/cpu');
    assert.equal(evaluateJsonPath(payload, '$.alerts[1].labels.severity'), 'warning');
    assert.equal(evaluateJsonPath(payload, '$.alerts[-1].labels.severity'), 'warning');
    assert.equal(evaluateJsonPath(payload, `$['odd.key']`), 'dotted');
    assert.equal(evaluateJsonPath(payload, '$.alerts[5]'), undefined);
    assert.equal(evaluateJsonPath(payload, '$.alert.title.length'), undefined);
    assert.equal(evaluateJsonPath(payload, '$.alert[0]'), undefined);
    assert.equal(evaluateJsonPath(payload, '$.alert.constructor'), undefined);
    assert.deepEqual(evaluateJsonPath(payload, '$'), payload);
  });

  test('refuses paths outside the subset with a positioned error', () => {
    for (const bad of ['alert.title', '$.', '$..title', '$.alerts[*]', '$.a[1:2]', `$['open`, '$.a b', '$[?(@.x)]']) {
      assert.throws(() => parseJsonPath(bad), JsonPathError, bad);
    }
    assert.throws(() => parseJsonPath('$..title'), /recursive descent/);
    assert.throws(() => parseJsonPath('$.*'), /wildcards/);
  });
});
