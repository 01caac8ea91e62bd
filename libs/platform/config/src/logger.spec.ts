import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import pino from 'pino';
import { createLogger, redactUrl } from './logger';

const TOKEN = 'tcal_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

describe('request URLs in logs', () => {
  test("a calendar feed's token is redacted from the path; ids, slugs and queries stay", () => {
    assert.equal(redactUrl(`/calendar/${TOKEN}.ics`), '/calendar/tcal_[redacted].ics');
    assert.equal(redactUrl(`/calendar/${TOKEN}.ics?x=1`), '/calendar/tcal_[redacted].ics?x=1');
    assert.equal(redactUrl(`/calendar/${TOKEN}`), '/calendar/tcal_[redacted]');
    for (const kept of ['/v1/schedules/0b0c5b4e-2f6d-4b7e-9d55-0d3f3b1b7d7a/shifts', '/v1/services/checkout-service?page[size]=10', '/v1/incidents/my_incident']) {
      assert.equal(redactUrl(kept), kept);
    }
  });

  test('a token in the query (e-mail verification, one-click acknowledge) is redacted; the other parameters stay', () => {
    const id = '0b0c5b4e-2f6d-4b7e-9d55-0d3f3b1b7d7a';
    assert.equal(redactUrl(`/v1/email_addresses/${id}/verify?token=AbC-_12`), `/v1/email_addresses/${id}/verify?token=[redacted]`);
    assert.equal(redactUrl('/v1/alert_acknowledgements?token=a.b&x=1'), '/v1/alert_acknowledgements?token=[redacted]&x=1');
    assert.equal(redactUrl('/v1/x?page[size]=10&TOKEN=secret#top'), '/v1/x?page[size]=10&TOKEN=[redacted]#top');
    assert.equal(redactUrl('/v1/x?notoken=kept&token_type=kept'), '/v1/x?notoken=kept&token_type=kept');
  });

  test("an alert source's ?secret= (its PagerDuty routing key too) is redacted", () => {
    assert.equal(redactUrl('/v1/alert_sources/abc/alerts?secret=0123abcd&x=1'), '/v1/alert_sources/abc/alerts?secret=[redacted]&x=1');
  });

  test("the logger's request serializer (the one Fastify's request logs use) redacts the URL", () => {
    const serializers = (createLogger('silent') as unknown as Record<symbol, Record<string, (v: unknown) => Record<string, unknown>>>)[pino.symbols.serializersSym];
    const logged = serializers.req({ method: 'GET', url: `/calendar/${TOKEN}.ics`, ip: '127.0.0.1' });
    assert.equal(logged.url, '/calendar/tcal_[redacted].ics');
    assert.ok(!JSON.stringify(logged).includes(TOKEN));
  });
});

test('a routing key in a logged object is redacted', () => {
  const lines: string[] = [];
  const logger = createLogger('info', 'test', { write: (line: string) => void lines.push(line) });
  logger.info({ event: { routing_key: 'R0ut1ngKey', dedup_key: 'kept' }, routing_key: 'R0ut1ngKey' }, 'event');
  assert.ok(!lines.join('').includes('R0ut1ngKey'), lines.join(''));
  assert.ok(lines.join('').includes('kept'));
});
