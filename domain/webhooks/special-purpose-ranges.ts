/**
 * The IANA special-purpose address registries (iana.org/assignments/iana-ipv4-special-registry and
 * iana-ipv6-special-registry), every entry, plus the blocks outside them that are not global unicast either
 * (multicast, the deprecated site-local and IPv4-compatible v6 ranges, v6 outside 2000::/3). A webhook target in any
 * of them is refused, the few registry entries marked globally reachable included (anycast relays, AS112, AMT): a
 * webhook receiver has no business there. Listed as data so a test can walk every row.
 */
export type SpecialRange = { cidr: string; name: string };

export const IPV4_SPECIAL: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"This network"' },
  { cidr: '10.0.0.0/8', name: 'Private-Use' },
  { cidr: '100.64.0.0/10', name: 'Shared Address Space' },
  { cidr: '127.0.0.0/8', name: 'Loopback' },
  { cidr: '169.254.0.0/16', name: 'Link Local' },
  { cidr: '172.16.0.0/12', name: 'Private-Use' },
  { cidr: '192.0.0.0/24', name: 'IETF Protocol Assignments (incl. DS-Lite, PCP and TURN anycast)' },
  { cidr: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4' },
  { cidr: '192.52.193.0/24', name: 'AMT' },
  { cidr: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)' },
  { cidr: '192.168.0.0/16', name: 'Private-Use' },
  { cidr: '192.175.48.0/24', name: 'Direct Delegation AS112 Service' },
  { cidr: '198.18.0.0/15', name: 'Benchmarking' },
  { cidr: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', name: 'Multicast (not in the registry; not unicast)' },
  { cidr: '240.0.0.0/4', name: 'Reserved' },
  { cidr: '255.255.255.255/32', name: 'Limited Broadcast' },
];

/** IPv4-mapped addresses (::ffff:0:0/96) are judged as the IPv4 address they carry, so they are not listed here. */
export const IPV6_SPECIAL: readonly SpecialRange[] = [
  { cidr: '::/96', name: 'Unspecified, Loopback and IPv4-compatible (deprecated; ::127.0.0.1 is loopback)' },
  { cidr: '64:ff9b::/96', name: 'IPv4-IPv6 Translation' },
  { cidr: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translation (local use)' },
  { cidr: '100::/64', name: 'Discard-Only Address Block' },
  { cidr: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix' },
  { cidr: '2001::/23', name: 'IETF Protocol Assignments (incl. TEREDO, benchmarking, AMT, AS112, ORCHIDv2, drone DETs)' },
  { cidr: '2001:db8::/32', name: 'Documentation' },
  { cidr: '2002::/16', name: '6to4' },
  { cidr: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service' },
  { cidr: '3fff::/20', name: 'Documentation' },
  { cidr: '5f00::/16', name: 'Segment Routing (SRv6) SIDs' },
  { cidr: 'fc00::/7', name: 'Unique-Local' },
  { cidr: 'fe80::/10', name: 'Link-Local Unicast' },
  { cidr: 'fec0::/10', name: 'Site-Local (deprecated; not in the registry)' },
  { cidr: 'ff00::/8', name: 'Multicast (not in the registry; not unicast)' },
];

/** Global unicast IPv6 lives in 2000::/3; everything else is unassigned or one of the blocks above. */
export const IPV6_GLOBAL_UNICAST = '2000::/3';
