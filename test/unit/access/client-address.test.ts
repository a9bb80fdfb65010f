import { clientAddress, trustedProxies } from '../../../domain/access/client-address';

describe('the client address behind proxies', () => {
  const none = trustedProxies([]);
  const edge = trustedProxies(['10.0.0.5', '172.16.0.0/12', 'fd00::/8']);

  it('an empty list trusts no one: the socket peer, whatever the header says, loopback included', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.7', 'x-forwarded-for', none)).toBe('127.0.0.1');
    expect(clientAddress('::1', 'for=198.51.100.7', 'forwarded', none)).toBe('::1');
    expect(clientAddress('::ffff:127.0.0.1', '198.51.100.7', 'x-forwarded-for', none)).toBe('::ffff:127.0.0.1');
  });

  it('from a configured proxy, the address it wrote; an untrusted peer with the same header is itself the client', () => {
    expect(clientAddress('10.0.0.5', '198.51.100.7', 'x-forwarded-for', edge)).toBe('198.51.100.7');
    expect(clientAddress('::ffff:10.0.0.5', '198.51.100.7', 'x-forwarded-for', edge)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.6', '198.51.100.7', 'x-forwarded-for', edge)).toBe('10.0.0.6');
    expect(clientAddress('fd12::1', '2001:db8::9', 'x-forwarded-for', edge)).toBe('2001:db8::9');
  });

  it('walks leftwards only through trusted hops: entries a client prepended are never read', () => {
    // The client sent "1.2.3.4"; the proxy appended what it saw (198.51.100.7).
    expect(clientAddress('10.0.0.5', '1.2.3.4, 198.51.100.7', 'x-forwarded-for', edge)).toBe('198.51.100.7');
    // Two trusted proxies in a row: the first one's peer is the client.
    expect(clientAddress('10.0.0.5', '1.2.3.4, 198.51.100.7, 172.16.3.4', 'x-forwarded-for', edge)).toBe('198.51.100.7');
    // Every hop trusted: the leftmost.
    expect(clientAddress('10.0.0.5', '172.16.3.4', 'x-forwarded-for', edge)).toBe('172.16.3.4');
    // Garbage stops the walk at the proxy that passed it on.
    expect(clientAddress('10.0.0.5', 'nonsense', 'x-forwarded-for', edge)).toBe('10.0.0.5');
  });

  it('reads RFC 7239 Forwarded: quoted, bracketed IPv6 with ports, IPv4 with ports, obfuscated names stop', () => {
    expect(clientAddress('10.0.0.5', 'for=1.2.3.4, for=198.51.100.7;proto=https', 'forwarded', edge)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.5', 'for="[2001:db8:cafe::17]:4711"', 'forwarded', edge)).toBe('2001:db8:cafe::17');
    expect(clientAddress('10.0.0.5', 'for="198.51.100.7:443";by=10.0.0.5', 'forwarded', edge)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.5', 'for=_hidden', 'forwarded', edge)).toBe('10.0.0.5');
    // The header the proxies are not configured to write is not read.
    expect(clientAddress('10.0.0.5', undefined, 'forwarded', edge)).toBe('10.0.0.5');
  });

  it('refuses a list entry that is neither an address nor a CIDR block', () => {
    expect(() => trustedProxies(['10.0.0.0/8', 'proxy.internal'])).toThrow(/proxy\.internal/);
  });
});
