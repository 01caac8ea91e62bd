import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  test('has the documented embedded defaults when nothing is set', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.authPort, 3001);
    assert.equal(c.dispatcherPort, 3002);
    assert.equal(c.databaseUrl, null);
    assert.equal(c.kafkaBrokers, null);
    assert.equal(c.dataDir, resolve('.data'));
    assert.equal(c.bootstrapApiKey, null);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.alertCreationLimitPerMinute, 50, 'the spec\'s alert-creation limit');
  });

  test('reads a raised alert-creation limit', () => {
    assert.equal(loadConfig({ ALERT_CREATION_LIMIT_PER_MINUTE: '5000' }).alertCreationLimitPerMinute, 5000);
  });

  test('reads the external database and Kafka brokers, trimming the broker list', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x', KAFKA_BROKERS: 'k1:9092, k2:9092' });
    assert.equal(c.databaseUrl, 'postgres://u:p@db:5432/x');
    assert.deepEqual(c.kafkaBrokers, ['k1:9092', 'k2:9092']);
  });

  for (const [name, value, message] of [
    ['PORT', 'eighty', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be between/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must be a postgres/],
    ['KAFKA_BROKERS', 'broker-without-port', /KAFKA_BROKERS entries must be host:port/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['BOOTSTRAP_API_KEY', 'short', /at least 16 characters/],
    ['ALERT_CREATION_LIMIT_PER_MINUTE', '0', /ALERT_CREATION_LIMIT_PER_MINUTE must be between/],
  ] as const) {
    test(`refuses ${name}=${value} with a message naming the variable`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && message.test(e.message));
    });
  }
});
