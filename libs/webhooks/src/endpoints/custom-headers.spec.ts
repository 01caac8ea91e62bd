import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { customHeaderProblems, isReservedWebhookHeader, MissingSecretError, renderHeaderValue, SECRET_NAME, secretNamesIn } from './custom-headers';

describe('secret templates in custom header values', () => {
  test('the names a value references, once each, with or without spaces inside the braces', () => {
    assert.deepEqual(secretNamesIn('Bearer {{ secrets.API_TOKEN }}'), ['API_TOKEN']);
    assert.deepEqual(secretNamesIn('{{secrets.a}}:{{  secrets._b2 }}:{{ secrets.a }}'), ['a', '_b2']);
    assert.deepEqual(secretNamesIn('plain value, {{ other.thing }}'), []);
  });

  test('rendering replaces each reference with the secret and keeps the rest as written', () => {
    const secrets = new Map([
      ['API_TOKEN', 's3cr3t'],
      ['user', 'bot'],
    ]);
    assert.equal(renderHeaderValue('Bearer {{ secrets.API_TOKEN }}', secrets), 'Bearer s3cr3t');
    assert.equal(renderHeaderValue('{{secrets.user}}:{{ secrets.API_TOKEN }} {{ x }}', secrets), 'bot:s3cr3t {{ x }}');
    assert.equal(renderHeaderValue('no template', new Map()), 'no template');
    // A secret value holding `$&` or `$1` is taken literally, not as a replacement pattern.
    assert.equal(renderHeaderValue('{{ secrets.user }}', new Map([['user', '$&$1']])), '$&$1');
  });

  test('a referenced secret missing from the map throws naming it', () => {
    assert.throws(
      () => renderHeaderValue('Bearer {{ secrets.GONE }}', new Map()),
      (error: unknown) => error instanceof MissingSecretError && error.secret === 'GONE' && /GONE/.test(error.message),
    );
  });

  test('secret names are identifiers', () => {
    for (const name of ['API_TOKEN', '_x', 'a1']) assert.ok(SECRET_NAME.test(name), name);
    for (const name of ['1a', 'with-dash', 'with space', '', 'é']) assert.ok(!SECRET_NAME.test(name), name);
  });
});

describe('custom header problems', () => {
  test('valid headers have none', () => {
    assert.deepEqual(customHeaderProblems([{ name: 'Authorization', value: 'Bearer {{ secrets.TOKEN }}' }, { name: 'X-Team', value: 'payments' }]), []);
  });

  test('reserved names are refused whatever their case', () => {
    for (const name of ['content-type', 'HOST', 'X-Rootly-Signature', 'Webhook-Signature', 'user-agent', 'Transfer-Encoding']) assert.ok(isReservedWebhookHeader(name), name);
    assert.ok(!isReservedWebhookHeader('X-Custom'));
    const problems = customHeaderProblems([{ name: 'x-rootly-signature', value: 'forged' }]);
    assert.deepEqual(
      problems.map((p) => [p.attribute, p.code]),
      [['custom_headers/0/name', 'RESERVED_HEADER']],
    );
  });

  test('names that are no HTTP token, names given twice, values that break the line or a template: each named by its pointer', () => {
    const problems = customHeaderProblems([
      { name: 'Bad Name', value: 'v' },
      { name: 'X-A', value: 'line\r\nInjected: yes' },
      { name: 'x-a', value: 'v' },
      { name: 'X-B', value: '{{ secrets.bad-name }}' },
      { name: 'X-C', value: 'nul\0' },
    ]);
    assert.deepEqual(
      problems.map((p) => p.attribute),
      ['custom_headers/0/name', 'custom_headers/1/value', 'custom_headers/2/name', 'custom_headers/3/value', 'custom_headers/4/value'],
    );
    assert.ok(problems.every((p) => p.code === 'INVALID_HEADER'));
    assert.match(problems[2].detail, /given twice/);
    assert.match(problems[3].detail, /malformed secret template/);
  });
});
