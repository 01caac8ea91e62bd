import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { isCidr } from '@taproot/config';

/**
 * The address ranges a webhook may not reach unless the operator allows them: the machine itself,
 * the networks behind it (a receiver URL must not become a way into them) and addresses that are
 * not one unicast host. 169.254.169.254, the cloud metadata service, is link-local; 255.255.255.255
 * is in 240.0.0.0/4.
 */
const REFUSED_RANGES: readonly { kind: string; ipv4: readonly string[]; ipv6: readonly string[] }[] = [
  { kind: 'a loopback', ipv4: ['127.0.0.0/8'], ipv6: ['::1/128'] },
  { kind: 'an unspecified', ipv4: ['0.0.0.0/8'], ipv6: ['::/128'] },
  { kind: 'a private', ipv4: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ipv6: ['fc00::/7'] },
  { kind: 'a link-local', ipv4: ['169.254.0.0/16'], ipv6: ['fe80::/10'] },
  { kind: 'a shared (carrier-grade NAT)', ipv4: ['100.64.0.0/10'], ipv6: [] },
  { kind: 'a multicast', ipv4: ['224.0.0.0/4'], ipv6: ['ff00::/8'] },
  { kind: 'a reserved', ipv4: ['240.0.0.0/4', '192.0.0.0/24', '198.18.0.0/15'], ipv6: [] },
];

/**
 * IPv6 forms that carry an IPv4 address, and where: a socket to one of them reaches (or is
 * translated to) that IPv4 host, so they are judged by it. `first` is the index of the first of the
 * two 16-bit groups holding it.
 */
const IPV4_CARRIERS: readonly { network: string; prefix: number; first: number; form: string }[] = [
  { network: '::ffff:0:0', prefix: 96, first: 6, form: 'IPv4-mapped' },
  { network: '::', prefix: 96, first: 6, form: 'IPv4-compatible' },
  { network: '64:ff9b::', prefix: 96, first: 6, form: 'NAT64' },
  { network: '2002::', prefix: 16, first: 1, form: '6to4' },
];

const blockListOf = (ranges: readonly string[], family: 'ipv4' | 'ipv6'): BlockList => {
  const into = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.split('/');
    into.addSubnet(network, Number(prefix), family);
  }
  return into;
};

// One list per family: BlockList matches IPv4-mapped IPv6 addresses against IPv4 rules, and those
// are judged with the other carried forms, naming the form.
const REFUSED = REFUSED_RANGES.map(({ kind, ipv4, ipv6 }) => ({ kind, ipv4: blockListOf(ipv4, 'ipv4'), ipv6: blockListOf(ipv6, 'ipv6') }));
const CARRIERS = IPV4_CARRIERS.map((carrier) => ({ ...carrier, list: blockListOf([`${carrier.network}/${carrier.prefix}`], 'ipv6') }));

/** The eight 16-bit groups of a valid IPv6 address (no zone), its `::` expanded and a dotted tail converted. */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${address.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`
    : address;
  const [head, tail] = hex.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const before = groups(head);
  const after = groups(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The IPv4 address an IPv6 address carries (IPV4_CARRIERS), with the form's name; null for none. */
function carriedIpv4(address: string): { ipv4: string; form: string } | null {
  const carrier = CARRIERS.find(({ list }) => list.check(address, 'ipv6'));
  if (!carrier) return null;
  const groups = ipv6Groups(address);
  const [high, low] = [groups[carrier.first], groups[carrier.first + 1]];
  return { ipv4: [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'), form: carrier.form };
}

const kindOf = (address: string, family: 'ipv4' | 'ipv6'): string | undefined => REFUSED.find((ranges) => ranges[family].check(address, family))?.kind;

/** Decides which addresses outgoing webhooks may connect to. */
export interface AddressGuard {
  /**
   * Why a connection to `address` (an IP address, as a resolver answers or a URL names it) is
   * refused, in words for the delivery record ("refused: 10.0.0.5 is a private address"); null
   * when it is allowed. Anything that is not an IP address is refused.
   */
  refusal(address: string): string | null;
}

/**
 * An address guard: every address is allowed except the refused ranges above (loopback,
 * unspecified, private, link-local, carrier-grade NAT, multicast, reserved) and the IPv6 forms that
 * carry one of them (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4), unless the address is
 * in one of `allowedNetworks`.
 *
 * @param allowedNetworks CIDRs the operator opens (WEBHOOK_ALLOWED_NETWORKS, checked by the same
 *   rule, `isCidr`), e.g. `10.1.0.0/16`, `fd00::/8` or `10.1.2.3/32`. An IPv4 network also allows
 *   the IPv6 forms carrying its addresses.
 * @throws Error naming the value when one of `allowedNetworks` is not a network in CIDR notation.
 */
export function createAddressGuard(allowedNetworks: readonly string[] = []): AddressGuard {
  const allowed = new BlockList();
  for (const network of allowedNetworks) addNetwork(allowed, network);
  return {
    refusal(address) {
      // A zone (fe80::1%eth0) names the interface, not the host; BlockList answers false for it.
      const host = address.split('%')[0];
      if (isIPv4(host)) {
        const kind = allowed.check(host, 'ipv4') ? undefined : kindOf(host, 'ipv4');
        return kind ? `refused: ${address} is ${kind} address` : null;
      }
      // BlockList answers false for what it cannot parse: only a valid address reaches it.
      if (!isIPv6(host)) return `refused: ${address} is not an IP address`;
      if (allowed.check(host, 'ipv6')) return null;
      const own = kindOf(host, 'ipv6');
      if (own) return `refused: ${address} is ${own} address`;
      const carried = carriedIpv4(host);
      if (!carried || allowed.check(carried.ipv4, 'ipv4')) return null;
      const kind = kindOf(carried.ipv4, 'ipv4');
      return kind ? `refused: ${address} is ${kind} address (${carried.ipv4} in ${carried.form} form)` : null;
    },
  };
}

function addNetwork(list: BlockList, network: string): void {
  if (!isCidr(network)) throw new Error(`allowed networks: "${network}" is not a network in CIDR notation (address/prefix, e.g. 10.1.0.0/16 or fd00::/8)`);
  const [address, prefix] = network.split('/');
  list.addSubnet(address, Number(prefix), isIPv4(address) ? 'ipv4' : 'ipv6');
}
