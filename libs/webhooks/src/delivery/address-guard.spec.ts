import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createAddressGuard } from './address-guard';

const guard = createAddressGuard();

describe('createAddressGuard without allowed networks', () => {
  const refused: [address: string, words: string][] = [
    ['127.0.0.1', 'refused: 127.0.0.1 is a loopback address'],
    ['127.255.255.254', 'refused: 127.255.255.254 is a loopback address'],
    ['::1', 'refused: ::1 is a loopback address'],
    ['0.0.0.0', 'refused: 0.0.0.0 is an unspecified address'],
    ['0.1.2.3', 'refused: 0.1.2.3 is an unspecified address'],
    ['::', 'refused: :: is an unspecified address'],
    ['10.0.0.5', 'refused: 10.0.0.5 is a private address'],
    ['172.16.0.1', 'refused: 172.16.0.1 is a private address'],
    ['172.31.255.255', 'refused: 172.31.255.255 is a private address'],
    ['192.168.1.1', 'refused: 192.168.1.1 is a private address'],
    ['fc00::1', 'refused: fc00::1 is a private address'],
    ['fd12:3456::1', 'refused: fd12:3456::1 is a private address'],
    ['169.254.169.254', 'refused: 169.254.169.254 is a link-local address'],
    ['169.254.0.1', 'refused: 169.254.0.1 is a link-local address'],
    ['fe80::1', 'refused: fe80::1 is a link-local address'],
    ['fe80::1%eth0', 'refused: fe80::1%eth0 is a link-local address'],
    ['febf::1', 'refused: febf::1 is a link-local address'],
    ['100.64.0.1', 'refused: 100.64.0.1 is a shared (carrier-grade NAT) address'],
    ['100.127.255.255', 'refused: 100.127.255.255 is a shared (carrier-grade NAT) address'],
    ['224.0.0.1', 'refused: 224.0.0.1 is a multicast address'],
    ['239.255.255.250', 'refused: 239.255.255.250 is a multicast address'],
    ['ff02::1', 'refused: ff02::1 is a multicast address'],
    ['240.0.0.1', 'refused: 240.0.0.1 is a reserved address'],
    ['255.255.255.255', 'refused: 255.255.255.255 is a reserved address'],
    ['192.0.0.8', 'refused: 192.0.0.8 is a reserved address'],
    ['198.18.0.1', 'refused: 198.18.0.1 is a reserved address'],
    ['198.19.255.255', 'refused: 198.19.255.255 is a reserved address'],
    // IPv6 forms carrying a refused IPv4 address, in every spelling a resolver or URL may give.
    ['::ffff:127.0.0.1', 'refused: ::ffff:127.0.0.1 is a loopback address (127.0.0.1 in IPv4-mapped form)'],
    ['::ffff:7f00:1', 'refused: ::ffff:7f00:1 is a loopback address (127.0.0.1 in IPv4-mapped form)'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'refused: 0:0:0:0:0:ffff:a9fe:a9fe is a link-local address (169.254.169.254 in IPv4-mapped form)'],
    ['::FFFF:10.0.0.5', 'refused: ::FFFF:10.0.0.5 is a private address (10.0.0.5 in IPv4-mapped form)'],
    ['::127.0.0.1', 'refused: ::127.0.0.1 is a loopback address (127.0.0.1 in IPv4-compatible form)'],
    ['::7f00:1', 'refused: ::7f00:1 is a loopback address (127.0.0.1 in IPv4-compatible form)'],
    ['64:ff9b::7f00:1', 'refused: 64:ff9b::7f00:1 is a loopback address (127.0.0.1 in NAT64 form)'],
    ['64:ff9b::192.168.0.1', 'refused: 64:ff9b::192.168.0.1 is a private address (192.168.0.1 in NAT64 form)'],
    ['2002:a9fe:a9fe::1', 'refused: 2002:a9fe:a9fe::1 is a link-local address (169.254.169.254 in 6to4 form)'],
    // What is not an IP address is never taken for a public one.
    ['localhost', 'refused: localhost is not an IP address'],
    ['', 'refused:  is not an IP address'],
    ['1.2.3', 'refused: 1.2.3 is not an IP address'],
  ];
  test.each(refused)('%s is refused', (address, words) => {
    assert.equal(guard.refusal(address), words);
  });

  const allowed = [
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '198.17.255.255',
    '198.20.0.0',
    '192.0.1.1',
    '223.255.255.255',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    'fec0::1',
  ];
  test.each(allowed)('%s is a public address', (address) => {
    assert.equal(guard.refusal(address), null);
  });
});

describe('createAddressGuard with allowed networks', () => {
  test('an allowed network opens its addresses, and only those', () => {
    const opened = createAddressGuard(['127.0.0.0/8', '10.1.0.0/16', 'fd00::/8', '169.254.169.253/32']);
    for (const address of ['127.0.0.1', '127.9.9.9', '10.1.2.3', 'fd00::5', '169.254.169.253']) assert.equal(opened.refusal(address), null, address);
    assert.equal(opened.refusal('10.2.0.1'), 'refused: 10.2.0.1 is a private address');
    assert.equal(opened.refusal('fc00::1'), 'refused: fc00::1 is a private address');
    assert.equal(opened.refusal('::1'), 'refused: ::1 is a loopback address');
    assert.equal(opened.refusal('169.254.169.254'), 'refused: 169.254.169.254 is a link-local address');
  });

  test('an allowed IPv4 network opens the IPv6 forms carrying its addresses', () => {
    const opened = createAddressGuard(['127.0.0.0/8']);
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::']) assert.equal(opened.refusal(address), null, address);
    assert.equal(opened.refusal('::ffff:10.0.0.1'), 'refused: ::ffff:10.0.0.1 is a private address (10.0.0.1 in IPv4-mapped form)');
  });

  test('0.0.0.0/0 and ::/0 open everything', () => {
    const open = createAddressGuard(['0.0.0.0/0', '::/0']);
    for (const address of ['127.0.0.1', '10.0.0.1', '::1', 'fe80::1', '::ffff:127.0.0.1']) assert.equal(open.refusal(address), null, address);
  });

  test.each(['10.0.0.0/33', 'fd00::/129', '10.0.0/8', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/x', '10.0.0.0/-1', 'example.com/8', '', '10.1.2.3'])(
    'the allowed network %p is refused at construction, named',
    (network) => {
      assert.throws(() => createAddressGuard(['127.0.0.0/8', network]), (error: Error) => error.message.includes(`"${network}"`) && /CIDR/.test(error.message));
    },
  );
});
