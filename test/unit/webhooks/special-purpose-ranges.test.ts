import { isBlockedAddress } from '../../../domain/webhooks/blocked-address';
import { checkTargetUrl } from '../../../domain/webhooks/target-url';
import { createTargetHostCheck } from '../../../clients/webhooks/target-host-check';

/**
 * Every entry of the IANA special-purpose address registries (IPv4 and IPv6, as published), written out here
 * independently of the code's table: the first and last address of each block and one inside are refused as webhook
 * targets, and the addresses just outside stay allowed where they are global unicast. Plus the ranges outside the
 * registries that are not global unicast (multicast, site-local, IPv4-compatible v6) and public literals.
 */
const IPV4: [string, string, string, string][] = [
  // [block, first, inside, last]
  ['0.0.0.0/8 "this network"', '0.0.0.0', '0.1.2.3', '0.255.255.255'],
  ['10.0.0.0/8 private-use', '10.0.0.0', '10.20.30.40', '10.255.255.255'],
  ['100.64.0.0/10 shared address space', '100.64.0.0', '100.100.100.200', '100.127.255.255'],
  ['127.0.0.0/8 loopback', '127.0.0.0', '127.0.0.1', '127.255.255.255'],
  ['169.254.0.0/16 link local', '169.254.0.0', '169.254.169.254', '169.254.255.255'],
  ['172.16.0.0/12 private-use', '172.16.0.0', '172.20.1.1', '172.31.255.255'],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.0', '192.0.0.9', '192.0.0.255'],
  ['192.0.2.0/24 TEST-NET-1', '192.0.2.0', '192.0.2.10', '192.0.2.255'],
  ['192.31.196.0/24 AS112-v4', '192.31.196.0', '192.31.196.1', '192.31.196.255'],
  ['192.52.193.0/24 AMT', '192.52.193.0', '192.52.193.1', '192.52.193.255'],
  ['192.88.99.0/24 6to4 relay anycast', '192.88.99.0', '192.88.99.1', '192.88.99.255'],
  ['192.168.0.0/16 private-use', '192.168.0.0', '192.168.1.1', '192.168.255.255'],
  ['192.175.48.0/24 AS112 direct delegation', '192.175.48.0', '192.175.48.6', '192.175.48.255'],
  ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.0.1', '198.19.255.255'],
  ['198.51.100.0/24 TEST-NET-2', '198.51.100.0', '198.51.100.7', '198.51.100.255'],
  ['203.0.113.0/24 TEST-NET-3', '203.0.113.0', '203.0.113.5', '203.0.113.255'],
  ['224.0.0.0/4 multicast', '224.0.0.0', '239.1.2.3', '239.255.255.255'],
  ['240.0.0.0/4 reserved', '240.0.0.0', '250.1.2.3', '255.255.255.254'],
  ['255.255.255.255/32 limited broadcast', '255.255.255.255', '255.255.255.255', '255.255.255.255'],
];

const IPV6: [string, string, string, string][] = [
  ['::1/128 loopback', '::1', '::1', '::1'],
  ['::/128 unspecified', '::', '::', '::'],
  ['::/96 IPv4-compatible (deprecated)', '::0.0.0.2', '::127.0.0.1', '::255.255.255.255'],
  ['::ffff:0:0/96 IPv4-mapped, judged as its v4', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254'],
  ['64:ff9b::/96 IPv4-IPv6 translation', '64:ff9b::', '64:ff9b::a00:1', '64:ff9b::ffff:ffff'],
  ['64:ff9b:1::/48 local-use translation', '64:ff9b:1::', '64:ff9b:1:2::3', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64 discard-only', '100::', '100::1', '100::ffff:ffff:ffff:ffff'],
  ['100:0:0:1::/64 dummy prefix', '100:0:0:1::', '100:0:0:1::5', '100:0:0:1:ffff:ffff:ffff:ffff'],
  ['2001::/23 IETF protocol assignments', '2001::', '2001:0:4136:e378::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001::/32 TEREDO', '2001::', '2001:0:abcd::1', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:1::1', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
  ['2001:3::/32 AMT', '2001:3::', '2001:3:1::1', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:4:112::/48 AS112-v6', '2001:4:112::', '2001:4:112::1', '2001:4:112:ffff:ffff:ffff:ffff:ffff'],
  ['2001:20::/28 ORCHIDv2', '2001:20::', '2001:25::1', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:30::/28 drone remote ID DETs', '2001:30::', '2001:31::1', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:85a3::8a2e:370:7334', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2002::/16 6to4', '2002::', '2002:a00:1::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2620:4f:8000::/48 AS112 direct delegation', '2620:4f:8000::', '2620:4f:8000::6', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20 documentation', '3fff::', '3fff:123::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['5f00::/16 SRv6 SIDs', '5f00::', '5f00:1::1', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7 unique-local', 'fc00::', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10 link-local', 'fe80::', 'fe80::1', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10 site-local (deprecated)', 'fec0::', 'fec0::1', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8 multicast', 'ff00::', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['outside 2000::/3 (unassigned)', '4000::', '8000::1', 'e000::1'],
];

/** Global unicast, some just outside a special block. */
const PUBLIC = [
  '8.8.8.8',
  '93.184.215.14',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.3.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '::ffff:8.8.8.8',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2001:200::1',
  '2a00:1450:4001:82b::200e',
  '2400:cb00::1',
  '2001:db9::1',
  '2003::1',
  '3ffe:ffff::1',
];

describe('webhook targets in IANA special-purpose ranges', () => {
  it.each([...IPV4, ...IPV6])('%s is refused at its first, an inner and its last address', (_block, first, inside, last) => {
    for (const ip of [first, inside, last]) expect([ip, isBlockedAddress(ip)]).toEqual([ip, true]);
  });

  it.each(PUBLIC)('%s (global unicast) is allowed', (ip) => expect(isBlockedAddress(ip)).toBe(false));

  it('judges URLs the same way: public IPv6 literals pass, special ones and localhost. do not', () => {
    const prod = { requireHttps: true, allowPrivateTargets: false };
    expect(checkTargetUrl('https://[2606:4700:4700::1111]/hook', prod).ok).toBe(true);
    expect(checkTargetUrl('https://[2001:4860:4860::8888]:8443/x?y=1', prod).ok).toBe(true);
    for (const url of [
      'https://[::127.0.0.1]/',
      'https://[fec0::1]/',
      'https://[::1]/',
      'https://[fe80::1]/',
      'https://localhost./',
      'https://x.localhost./',
    ]) {
      expect([url, checkTargetUrl(url, prod).ok]).toEqual([url, false]);
    }
  });
});

describe('host names resolved at registration', () => {
  const check = createTargetHostCheck({
    timeoutMs: 200,
    resolve: async (host) => {
      if (host === 'slow.example.com') return new Promise(() => undefined);
      if (host === 'gone.example.com') throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
      const table: Record<string, string[]> = {
        'loop.example.com': ['127.0.0.1'],
        'pub.example.com': ['2606:4700:4700::1111', '93.184.215.14'],
        'half.example.com': ['8.8.8.8', 'fd00::1'],
      };
      return (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  });

  it('refuses a name with any non-public address, accepts public, unknown and slow names (delivery checks again)', async () => {
    expect(await check('loop.example.com')).toMatch(/127\.0\.0\.1/);
    expect(await check('half.example.com')).toMatch(/fd00::1/);
    expect(await check('pub.example.com')).toBeNull();
    expect(await check('gone.example.com')).toBeNull();
    expect(await check('slow.example.com')).toBeNull();
  });
});
