import ipaddr from 'ipaddr.js';
import { IPV4_SPECIAL, IPV6_GLOBAL_UNICAST, IPV6_SPECIAL } from './special-purpose-ranges';

/**
 * Where a webhook may not connect: anything but a global unicast address. The ranges are an explicit table
 * (special-purpose-ranges.ts), not the address library's own classes: ipaddr.js 1.9.1 calls `::127.0.0.1` and
 * `fec0::/10` ordinary unicast. ipaddr.js only parses and matches. A v4-mapped v6 address is judged as its v4.
 */
const v4 = IPV4_SPECIAL.map((r) => ipaddr.IPv4.parseCIDR(r.cidr));
const v6 = IPV6_SPECIAL.map((r) => ipaddr.IPv6.parseCIDR(r.cidr));
const v6Global = ipaddr.IPv6.parseCIDR(IPV6_GLOBAL_UNICAST);

export function isBlockedAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const a = ipaddr.parse(ip);
  if (a.kind() === 'ipv4') return v4.some((r) => (a as ipaddr.IPv4).match(r));
  const six = a as ipaddr.IPv6;
  if (six.isIPv4MappedAddress()) return isBlockedAddress(six.toIPv4Address().toString());
  return !six.match(v6Global) || v6.some((r) => six.match(r));
}

export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
