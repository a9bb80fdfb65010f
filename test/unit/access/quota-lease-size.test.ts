import { DEFAULT_LEASE_POLICY, leaseExtra } from '../../../domain/access/quota-lease-size';

describe('the block a process leases beyond the waiting calls', () => {
  const p = DEFAULT_LEASE_POLICY;
  it('is the recent rate over one lease, capped by the largest block and by a share of the remaining quota', () => {
    expect(leaseExtra(100, 1_000_000, p)).toBe(Math.ceil((100 * p.leaseMs) / 1000));
    expect(leaseExtra(1_000_000, 1_000_000_000, p)).toBe(p.maxBlock);
    expect(leaseExtra(1_000_000, 64_000, p)).toBe(1000);
    expect(leaseExtra(0, 1_000_000, p)).toBe(0);
  });

  it('is nothing below the headroom where a key is counted call by call (every tier quota is far below it)', () => {
    expect(leaseExtra(1000, p.minHeadroom - 1, p)).toBe(0);
    expect(leaseExtra(1000, 200, p)).toBe(0);
    expect(leaseExtra(1000, p.minHeadroom, p)).toBeGreaterThan(0);
  });
});
