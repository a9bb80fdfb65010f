import ipaddr from 'ipaddr.js';

/**
 * Limits on unauthenticated POST operations (upgrade, holder signup init and sign, and any later one): they write
 * durable rows and start workflows for anyone, so each client, and everyone together, gets a bounded rate.
 * A limit of 0 is off.
 */
export type PublicPostLimits = { perClientPerMinute: number; perClientPerHour: number; globalPerMinute: number; globalPerHour: number };

/**
 * The hourly client window also bounds what one client keeps open: an intent lives an hour by default
 * (PAYMENT_INTENT_WINDOW_S) and a signup link 15 minutes, so a client holds at most about two windows' worth.
 */
export const DEFAULT_PUBLIC_POST_LIMITS: PublicPostLimits = { perClientPerMinute: 10, perClientPerHour: 60, globalPerMinute: 120, globalPerHour: 1000 };

export type RateLimit = { name: string; scope: 'client' | 'global'; points: number; windowS: number };

/** The fixed windows the settings ask for, clients' first; names key the counters, so they never change. */
export function publicPostRateLimits(s: PublicPostLimits): RateLimit[] {
  const all: RateLimit[] = [
    { name: 'post_client_1m', scope: 'client', points: s.perClientPerMinute, windowS: 60 },
    { name: 'post_client_1h', scope: 'client', points: s.perClientPerHour, windowS: 3600 },
    { name: 'post_global_1m', scope: 'global', points: s.globalPerMinute, windowS: 60 },
    { name: 'post_global_1h', scope: 'global', points: s.globalPerHour, windowS: 3600 },
  ];
  return all.filter((l) => l.points > 0);
}

/**
 * Whom a limit counts against: the client's IP address (as Express resolves it behind trusted proxies). An IPv6
 * client is counted by its /64, the block one subscriber gets, since it can pick any address inside it for free.
 * IPv4-mapped IPv6 addresses count as their IPv4 address; anything unreadable shares one bucket.
 */
export function clientBucket(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${(addr as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
