import { isIP } from 'node:net';

/** The attributes of `GET /v1/ip_ranges`, the hosted API's `ip_ranges` (docs/ip-ranges.md). */
export interface IpRanges {
  integrations_ipv4: string[];
  integrations_ipv6: string[];
  webhooks_ipv4: string[];
  webhooks_ipv6: string[];
}

/**
 * The operator's egress CIDRs split by address family. Webhooks and integrations' calls (mail,
 * SMS, chat) leave the same install, so both lists carry every range of their family.
 */
export function ipRangesOf(cidrs: readonly string[]): IpRanges {
  const v4 = cidrs.filter((cidr) => isIP(cidr.split('/')[0]) === 4);
  const v6 = cidrs.filter((cidr) => isIP(cidr.split('/')[0]) === 6);
  return { integrations_ipv4: v4, integrations_ipv6: v6, webhooks_ipv4: [...v4], webhooks_ipv6: [...v6] };
}
