import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { ipRangesOf } from './ip-ranges';

describe('ipRangesOf', () => {
  test('splits the egress ranges by family, the same for webhooks and integrations', () => {
    assert.deepEqual(ipRangesOf(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7/32']), {
      integrations_ipv4: ['203.0.113.0/24', '198.51.100.7/32'],
      integrations_ipv6: ['2001:db8::/32'],
      webhooks_ipv4: ['203.0.113.0/24', '198.51.100.7/32'],
      webhooks_ipv6: ['2001:db8::/32'],
    });
  });

  test('none configured: four empty lists', () => {
    assert.deepEqual(ipRangesOf([]), { integrations_ipv4: [], integrations_ipv6: [], webhooks_ipv4: [], webhooks_ipv6: [] });
  });
});
