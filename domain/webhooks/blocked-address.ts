import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may not connect: anything but a global unicast address. ipaddr.js classifies the ranges (private,
 * loopback, link-local and so the 169.254.169.254 metadata address, CGNAT, multicast, reserved, unique-local v6 and
 * so fd00:ec2::254, NAT64 / 6to4 / Teredo that embed a v4 address); a v4-mapped v6 address is judged as its v4.
 * A few special-purpose v4 blocks it leaves as unicast are added here.
 */
const EXTRA_V4: [ipaddr.IPv4, number][] = [
  [ipaddr.IPv4.parse('192.0.0.0'), 24],
  [ipaddr.IPv4.parse('192.0.2.0'), 24],
  [ipaddr.IPv4.parse('198.18.0.0'), 15],
  [ipaddr.IPv4.parse('198.51.100.0'), 24],
  [ipaddr.IPv4.parse('203.0.113.0'), 24],
];

export function isBlockedAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  let a = ipaddr.parse(ip);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  if (a.range() !== 'unicast') return true;
  return a.kind() === 'ipv4' && EXTRA_V4.some((r) => (a as ipaddr.IPv4).match(r));
}

export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
