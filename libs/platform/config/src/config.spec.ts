import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, trustLocalAuthApp } from './config';

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

  test('reads the bootstrap owner\'s sign-in, both values or neither', () => {
    assert.equal(loadConfig({}).bootstrapAdmin, null);
    assert.deepEqual(loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'Admin@Example.test', BOOTSTRAP_ADMIN_PASSWORD: ' pass phrase ' }).bootstrapAdmin, {
      email: 'Admin@Example.test',
      password: ' pass phrase ',
    });
    assert.throws(() => loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'admin@example.test' }), /must be set together/);
    assert.throws(() => loadConfig({ BOOTSTRAP_ADMIN_PASSWORD: 'long enough' }), /must be set together/);
    assert.throws(() => loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'admin', BOOTSTRAP_ADMIN_PASSWORD: 'long enough' }), /BOOTSTRAP_ADMIN_EMAIL must be an e-mail/);
    assert.throws(
      () => loadConfig({ BOOTSTRAP_ADMIN_EMAIL: 'admin@example.test', BOOTSTRAP_ADMIN_PASSWORD: 'short' }),
      (e: unknown) => e instanceof ConfigError && /at least 8/.test(e.message) && !e.message.includes('short'),
    );
  });

  test('the auth app: issuer from HOST and AUTH_PORT unless AUTH_ISSUER; a development key-encryption key, flagged; a 60 s refresh grace', () => {
    const c = loadConfig({ HOST: '0.0.0.0', AUTH_PORT: '4001' });
    assert.equal(c.authIssuer, 'http://0.0.0.0:4001');
    assert.equal(c.keyEncryptionKeyIsDefault, true);
    assert.equal(c.oauthRefreshGraceSeconds, 60);
    assert.equal(c.oauthSigningKey, null);
    const set = loadConfig({ AUTH_ISSUER: 'https://auth.example.com/', OAUTH_KEY_ENCRYPTION_KEY: 'k'.repeat(32), OAUTH_REFRESH_GRACE_SECONDS: '10' });
    assert.equal(set.authIssuer, 'https://auth.example.com');
    assert.equal(set.oauthKeyEncryptionKey, 'k'.repeat(32));
    assert.equal(set.keyEncryptionKeyIsDefault, false);
    assert.equal(set.oauthRefreshGraceSeconds, 10);
    const jwk = { kty: 'RSA', n: 'n', e: 'AQAB', d: 'd' };
    assert.deepEqual(loadConfig({ OAUTH_SIGNING_KEY: JSON.stringify(jwk) }).oauthSigningKey, jwk);
  });

  test('npm start: the API trusts the local auth app unless an OAUTH_* variable is set', () => {
    const env: Record<string, string> = { AUTH_PORT: '4001', PUBLIC_URL: 'https://api.example.com' };
    trustLocalAuthApp(env);
    const c = loadConfig(env);
    assert.equal(c.oauthIssuer, 'http://127.0.0.1:4001');
    assert.equal(c.oauthAudience, 'https://api.example.com');
    assert.equal(c.oauthJwksUrl, 'http://127.0.0.1:4001/oauth/discovery/keys');
    const own: Record<string, string> = { OAUTH_ISSUER: 'https://id.example.com' };
    trustLocalAuthApp(own);
    assert.equal(own.OAUTH_JWKS_URL, undefined);
  });

  test('names every variable at fault in one start-up message, and never echoes a password', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', BOOTSTRAP_ADMIN_PASSWORD: 'secret1' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /PORT must be an integer, got "eighty"/.test(e.message) &&
        /LOG_LEVEL must be one of/.test(e.message) &&
        /BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together/.test(e.message) &&
        /at least 8 characters/.test(e.message) &&
        !e.message.includes('secret1'),
    );
  });

  test('trims values; an empty variable is unset', () => {
    const c = loadConfig({ PORT: ' 4000 ', KAFKA_BROKERS: '  ', LOG_LEVEL: '' });
    assert.equal(c.port, 4000);
    assert.equal(c.kafkaBrokers, null);
    assert.equal(c.logLevel, 'info');
  });

  test('reads a raised alert-creation limit', () => {
    assert.equal(loadConfig({ ALERT_CREATION_LIMIT_PER_MINUTE: '5000' }).alertCreationLimitPerMinute, 5000);
  });

  test('inbox rows are kept 192 hours (8 days: longer than the 7 days Kafka keeps a topic by default) unless INBOX_RETENTION_HOURS says otherwise', () => {
    assert.equal(loadConfig({}).inboxRetentionHours, 192);
    assert.equal(loadConfig({ INBOX_RETENTION_HOURS: '720' }).inboxRetentionHours, 720);
  });

  test('the paging engine polls every 100 ms unless PAGING_POLL_MS says otherwise (0: only when run)', () => {
    assert.equal(loadConfig({}).pagingPollMs, 100);
    assert.equal(loadConfig({ PAGING_POLL_MS: '0' }).pagingPollMs, 0);
  });

  test('settled webhook deliveries are kept 30 days unless WEBHOOK_DELIVERY_RETENTION_DAYS says otherwise', () => {
    assert.equal(loadConfig({}).webhookDeliveryRetentionDays, 30);
    assert.equal(loadConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: '90' }).webhookDeliveryRetentionDays, 90);
  });

  test('outgoing webhooks: no allowed network, a 500 ms poll (0: only when run), 10 s attempts, 64 in flight, disabled after 120 h failing', () => {
    const c = loadConfig({});
    assert.deepEqual([c.webhookAllowedNetworks, c.webhookPollMs, c.webhookTimeoutMs, c.webhookConcurrency, c.webhookDisableAfterHours], [[], 500, 10_000, 64, 120]);
    const set = loadConfig({ WEBHOOK_ALLOWED_NETWORKS: ' 127.0.0.0/8, fd00::/8 ', WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_CONCURRENCY: '8', WEBHOOK_DISABLE_AFTER_HOURS: '24' });
    assert.deepEqual([set.webhookAllowedNetworks, set.webhookPollMs, set.webhookTimeoutMs, set.webhookConcurrency, set.webhookDisableAfterHours], [['127.0.0.0/8', 'fd00::/8'], 0, 2000, 8, 24]);
  });

  test('announces no egress ranges unless EGRESS_IP_RANGES lists them', () => {
    assert.deepEqual(loadConfig({}).egressIpRanges, []);
    assert.deepEqual(loadConfig({ EGRESS_IP_RANGES: ' 203.0.113.0/24, 2001:db8::/32 ' }).egressIpRanges, ['203.0.113.0/24', '2001:db8::/32']);
  });

  test('reuses computed shifts for 5 s unless SHIFT_CACHE_TTL_MS says otherwise (0: never)', () => {
    assert.equal(loadConfig({}).shiftCacheTtlMs, 5000);
    assert.equal(loadConfig({ SHIFT_CACHE_TTL_MS: '0' }).shiftCacheTtlMs, 0);
  });

  test('serves public status pages from memory for 500 ms unless STATUS_PAGE_CACHE_TTL_MS says otherwise (0: never)', () => {
    assert.equal(loadConfig({}).statusPageCacheTtlMs, 500);
    assert.equal(loadConfig({ STATUS_PAGE_CACHE_TTL_MS: '0' }).statusPageCacheTtlMs, 0);
  });

  test('paging channels: none without SMTP_URL or Twilio credentials; SMTP_FROM and TWILIO_API_URL have defaults', () => {
    const none = loadConfig({});
    assert.equal(none.smtpUrl, null);
    assert.equal(none.smtpFrom, 'Taproot <taproot@localhost>');
    assert.equal(none.twilio, null);
    const set = loadConfig({
      SMTP_URL: 'smtps://pager:p%40ss@mail.example.com:465',
      SMTP_FROM: 'On call <oncall@example.com>',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM_NUMBER: '+15005550006',
    });
    assert.equal(set.smtpUrl, 'smtps://pager:p%40ss@mail.example.com:465');
    assert.equal(set.smtpFrom, 'On call <oncall@example.com>');
    assert.deepEqual(set.twilio, { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'token', fromNumber: '+15005550006', apiUrl: 'https://api.twilio.com' });
    const compatible = loadConfig({ TWILIO_ACCOUNT_SID: 'project', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM_NUMBER: '+15005550006', TWILIO_API_URL: 'https://example.signalwire.com/api/laml/' });
    assert.equal(compatible.twilio?.apiUrl, 'https://example.signalwire.com/api/laml');
  });

  test('the Twilio credentials are all or none: one message naming the three and the unset ones, never the token', () => {
    assert.throws(
      () => loadConfig({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'secret-token' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message === 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER must be set together (unset: TWILIO_FROM_NUMBER)',
    );
    assert.throws(() => loadConfig({ TWILIO_FROM_NUMBER: '+15005550006' }), /must be set together \(unset: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN\)/);
  });

  test('acknowledge links: a secret derived from the cursor secret unless set, 24 hours unless set', () => {
    const c = loadConfig({});
    assert.equal(c.acknowledgeLinkTtlHours, 24);
    assert.ok(c.acknowledgeLinkSecret.length >= 32);
    assert.notEqual(c.acknowledgeLinkSecret, c.cursorSecret);
    assert.equal(loadConfig({}).acknowledgeLinkSecret, c.acknowledgeLinkSecret, 'stable across starts: links sent before a restart still work');
    assert.notEqual(loadConfig({ CURSOR_SECRET: 'own-cursor-secret' }).acknowledgeLinkSecret, c.acknowledgeLinkSecret, 'a deployment\'s own cursor secret gives it its own');
    const set = loadConfig({ ACKNOWLEDGE_LINK_SECRET: 's'.repeat(32), ACKNOWLEDGE_LINK_TTL_HOURS: '2' });
    assert.equal(set.acknowledgeLinkSecret, 's'.repeat(32));
    assert.equal(set.acknowledgeLinkTtlHours, 2);
  });

  test('status page client and session secrets: derived from the cursor secret unless set, each its own', () => {
    const c = loadConfig({});
    const secrets = [c.cursorSecret, c.acknowledgeLinkSecret, c.statusPageClientSecret, c.statusPageSessionSecret];
    assert.equal(new Set(secrets).size, 4, 'none reveals another');
    assert.equal(loadConfig({}).statusPageClientSecret, c.statusPageClientSecret, 'the api and the auth app derive the same one');
    assert.notEqual(loadConfig({ CURSOR_SECRET: 'own-cursor-secret' }).statusPageSessionSecret, c.statusPageSessionSecret);
    const set = loadConfig({ STATUS_PAGE_CLIENT_SECRET: 'c'.repeat(32), STATUS_PAGE_SESSION_SECRET: 's'.repeat(32) });
    assert.deepEqual([set.statusPageClientSecret, set.statusPageSessionSecret], ['c'.repeat(32), 's'.repeat(32)]);
  });

  test('never echoes an SMTP_URL (it may hold a password)', () => {
    assert.throws(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail' }), (e: unknown) => e instanceof ConfigError && /SMTP_URL must be an smtp/.test(e.message) && !e.message.includes('hunter2'));
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
    ['SHIFT_CACHE_TTL_MS', '600001', /SHIFT_CACHE_TTL_MS must be between/],
    ['PAGING_POLL_MS', '60001', /PAGING_POLL_MS must be between/],
    ['INBOX_RETENTION_HOURS', '0', /INBOX_RETENTION_HOURS must be between 1 and 87600/],
    ['AUTH_ISSUER', 'auth.example.com', /AUTH_ISSUER must be an http\(s\) URL/],
    ['OAUTH_KEY_ENCRYPTION_KEY', 'too-short', /OAUTH_KEY_ENCRYPTION_KEY must be at least 32/],
    ['OAUTH_REFRESH_GRACE_SECONDS', '-1', /OAUTH_REFRESH_GRACE_SECONDS must be an integer/],
    ['OAUTH_SIGNING_KEY', '{"kty":"EC"}', /OAUTH_SIGNING_KEY must be a private RSA/],
    ['OAUTH_SIGNING_KEY', 'not json', /OAUTH_SIGNING_KEY must be a JSON Web Key/],
    ['SMTP_URL', 'mail.example.com:25', /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    ['SMTP_URL', 'smtp://', /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    ['SMTP_FROM', 'Taproot', /SMTP_FROM must be an address/],
    ['TWILIO_FROM_NUMBER', '5005550006', /TWILIO_FROM_NUMBER must be an E\.164 phone number/],
    ['TWILIO_API_URL', 'api.twilio.com', /TWILIO_API_URL must be an http\(s\) URL/],
    ['ACKNOWLEDGE_LINK_SECRET', 'short', /ACKNOWLEDGE_LINK_SECRET must be at least 32/],
    ['ACKNOWLEDGE_LINK_TTL_HOURS', '0', /ACKNOWLEDGE_LINK_TTL_HOURS must be between 1 and 720/],
    ['STATUS_PAGE_CLIENT_SECRET', 'short', /STATUS_PAGE_CLIENT_SECRET must be at least 32/],
    ['STATUS_PAGE_SESSION_SECRET', 'short', /STATUS_PAGE_SESSION_SECRET must be at least 32/],
    ['WEBHOOK_ALLOWED_NETWORKS', '10.0.0.0/8,10.1.2.3', /WEBHOOK_ALLOWED_NETWORKS entries must be CIDRs .*got "10\.1\.2\.3"/],
    ['WEBHOOK_ALLOWED_NETWORKS', '10.0.0.0/33', /WEBHOOK_ALLOWED_NETWORKS entries must be CIDRs/],
    ['WEBHOOK_ALLOWED_NETWORKS', 'localhost/8', /WEBHOOK_ALLOWED_NETWORKS entries must be CIDRs/],
    ['EGRESS_IP_RANGES', '203.0.113.0/24,203.0.113.7', /EGRESS_IP_RANGES entries must be CIDRs .*got "203\.0\.113\.7"/],
    ['WEBHOOK_POLL_MS', '60001', /WEBHOOK_POLL_MS must be between/],
    ['WEBHOOK_TIMEOUT_MS', '10', /WEBHOOK_TIMEOUT_MS must be between/],
    ['WEBHOOK_CONCURRENCY', '0', /WEBHOOK_CONCURRENCY must be between/],
    ['WEBHOOK_DISABLE_AFTER_HOURS', '0', /WEBHOOK_DISABLE_AFTER_HOURS must be between/],
    ['WEBHOOK_DELIVERY_RETENTION_DAYS', '1', /WEBHOOK_DELIVERY_RETENTION_DAYS must be between 2 and 3650/],
  ] as const) {
    test(`refuses ${name}=${value} with a message naming the variable`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && message.test(e.message));
    });
  }
});
