/**
 * How many calls an API process leases for a key beyond the ones waiting now: enough for the key's recent rate over
 * one lease, never more than `maxBlock`, and nothing at all while the key's remaining quota is below
 * `minHeadroom`. So a key with a small quota (every tier's daily quota, and a small contract one) is counted call by
 * call as exactly as before; only a key far from its limit is served from memory, and the calls other processes can
 * hold back from it are at most `headroom / headroomShare` each.
 */
export type LeasePolicy = { leaseMs: number; maxBlock: number; minHeadroom: number; headroomShare: number };

export const DEFAULT_LEASE_POLICY: LeasePolicy = { leaseMs: 2000, maxBlock: 5000, minHeadroom: 10_000, headroomShare: 64 };

/** `ratePerS`: the key's calls per second in this process lately; `headroom`: limit − used, as last seen. */
export function leaseExtra(ratePerS: number, headroom: number, p: LeasePolicy = DEFAULT_LEASE_POLICY): number {
  if (headroom < p.minHeadroom) return 0;
  const wanted = Math.ceil((ratePerS * p.leaseMs) / 1000);
  return Math.max(0, Math.min(wanted, p.maxBlock, Math.floor(headroom / p.headroomShare)));
}
