import ipaddr from 'ipaddr.js';

/** Which header a trusted proxy writes the client's address into: `X-Forwarded-For` or RFC 7239 `Forwarded`. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** IPv4-mapped IPv6 (`::ffff:192.0.2.1`, what a dual-stack socket reports) reads as its IPv4 address. */
const parse = (ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => (ipaddr.isValid(ip) ? ipaddr.process(ip) : undefined);

/** One proxy entry: an address (`10.0.0.5`, `::1`) or a CIDR block (`10.0.0.0/8`, `fd00::/8`); throws on anything else. */
function proxyRange(entry: string): Range {
  if (entry.includes('/')) {
    const [addr, bits] = ipaddr.parseCIDR(entry);
    return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
      ? [(addr as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)]
      : [addr, bits];
  }
  const addr = parse(entry);
  if (!addr) throw new Error(`not an IP address or CIDR block: ${entry}`);
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}

/** Whether the peer at an address is one of the configured proxies. An empty list trusts no one. */
export function trustedProxies(entries: readonly string[]): (ip: string) => boolean {
  const ranges = entries.map(proxyRange);
  if (ranges.length === 0) return () => false;
  return (ip) => {
    const addr = parse(ip);
    return (
      !!addr &&
      ranges.some(([net, bits]) => net.kind() === addr.kind() /* then both are the same kind */ && (addr as ipaddr.IPv4).match(net as ipaddr.IPv4, bits))
    );
  };
}

/** The addresses a `Forwarded` header lists, first hop first (`for=` of each element; quoted, bracketed, with ports). */
function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(',')) {
    const pair = element
      .split(';')
      .map((p) => p.trim())
      .find((p) => p.toLowerCase().startsWith('for='));
    // An element without `for=` (or `for=unknown`, an obfuscated name) still is a hop: it stops the walk.
    let v = pair ? pair.slice(4).trim().replace(/^"|"$/g, '') : '';
    const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
    if (bracket) v = bracket[1]!;
    else if (/^[\d.]+:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
    out.push(v);
  }
  return out;
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy, in which case the address the proxy
 * wrote (the header's last entry) — and so on leftwards while each hop is itself a trusted proxy. Entries left of
 * the first untrusted hop were written by whoever sent the request and are never read, so a client cannot choose
 * its own address; an unreadable entry stops the walk at the proxy that passed it on.
 */
export function clientAddress(
  peer: string | undefined,
  header: string | undefined,
  which: ForwardedHeader,
  trusted: (ip: string) => boolean,
): string | undefined {
  let addr = peer;
  if (!addr || !header || !trusted(addr)) return addr;
  const hops = which === 'forwarded' ? forwardedFor(header) : header.split(',').map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!parse(hop)) return addr;
    addr = hop;
    if (!trusted(addr)) return addr;
  }
  return addr;
}
