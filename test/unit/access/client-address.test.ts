import { clientAddress, trustedProxies, type ForwardedHeader } from '../../../domain/http/client-address';

const none = trustedProxies([]);
const edge = trustedProxies(['10.0.0.5', '172.16.0.0/12', 'fd00::/8']);
type Case = [why: string, peer: string, header: string | undefined, which: ForwardedHeader, trusted: typeof none, client: string];

const CASES: Case[] = [
  // An empty list trusts no one: the socket peer, whatever the header says, loopback included.
  ['no proxy configured: loopback is not trusted', '127.0.0.1', '198.51.100.7', 'x-forwarded-for', none, '127.0.0.1'],
  ['no proxy configured: Forwarded neither', '::1', 'for=198.51.100.7', 'forwarded', none, '::1'],
  ['no proxy configured: mapped loopback neither', '::ffff:127.0.0.1', '198.51.100.7', 'x-forwarded-for', none, '::ffff:127.0.0.1'],
  // From a configured proxy, the address it wrote; an untrusted peer with the same header is itself the client.
  ['a configured proxy', '10.0.0.5', '198.51.100.7', 'x-forwarded-for', edge, '198.51.100.7'],
  ['a configured proxy seen as mapped IPv6', '::ffff:10.0.0.5', '198.51.100.7', 'x-forwarded-for', edge, '198.51.100.7'],
  ['a peer next to the proxy', '10.0.0.6', '198.51.100.7', 'x-forwarded-for', edge, '10.0.0.6'],
  ['an IPv6 proxy in a configured block', 'fd12::1', '2001:db8::9', 'x-forwarded-for', edge, '2001:db8::9'],
  // Leftwards only through trusted hops: entries a client prepended are never read.
  ['the client prepended an entry', '10.0.0.5', '1.2.3.4, 198.51.100.7', 'x-forwarded-for', edge, '198.51.100.7'],
  ['two trusted proxies in a row', '10.0.0.5', '1.2.3.4, 198.51.100.7, 172.16.3.4', 'x-forwarded-for', edge, '198.51.100.7'],
  ['every hop trusted: the leftmost', '10.0.0.5', '172.16.3.4', 'x-forwarded-for', edge, '172.16.3.4'],
  ['garbage stops at the proxy that passed it on', '10.0.0.5', 'nonsense', 'x-forwarded-for', edge, '10.0.0.5'],
  // RFC 7239 Forwarded: quoted, bracketed IPv6 with ports, IPv4 with ports; obfuscated names stop the walk.
  ['Forwarded, two elements', '10.0.0.5', 'for=1.2.3.4, for=198.51.100.7;proto=https', 'forwarded', edge, '198.51.100.7'],
  ['Forwarded, bracketed IPv6 with a port', '10.0.0.5', 'for="[2001:db8:cafe::17]:4711"', 'forwarded', edge, '2001:db8:cafe::17'],
  ['Forwarded, IPv4 with a port', '10.0.0.5', 'for="198.51.100.7:443";by=10.0.0.5', 'forwarded', edge, '198.51.100.7'],
  ['Forwarded, an obfuscated name', '10.0.0.5', 'for=_hidden', 'forwarded', edge, '10.0.0.5'],
  ['the configured header absent', '10.0.0.5', undefined, 'forwarded', edge, '10.0.0.5'],
];

describe('the client address behind proxies', () => {
  it.each(CASES)('%s', (_why, peer, header, which, trusted, client) => {
    expect(clientAddress(peer, header, which, trusted)).toBe(client);
  });

  it('refuses a list entry that is neither an address nor a CIDR block', () => {
    expect(() => trustedProxies(['10.0.0.0/8', 'proxy.internal'])).toThrow(/proxy\.internal/);
  });
});
