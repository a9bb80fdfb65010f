import { watchEvents, watchesInForce, watchMessage, type Watch } from '../../../domain/alerts/watch-events';

const flag = (name: string, triggered: boolean) => ({ flag: name, value: 0.6, threshold: 0.5, triggered });

describe('watch events', () => {
  it('names graduation and each triggered rug flag, nothing else', () => {
    expect(watchEvents({ mayhem: false, graduated: false, rugFlags: [flag('bundle_pct', false)] })).toEqual([]);
    expect(
      watchEvents({ mayhem: false, graduated: true, rugFlags: [flag('bundle_pct', true), flag('holder_concentration', false)] }).map((e) => e.event),
    ).toEqual(['graduated', 'rug:bundle_pct']);
  });

  it('says nothing of mayhem mints', () => {
    expect(watchEvents({ mayhem: true, graduated: true, rugFlags: [flag('bundle_pct', true)] })).toEqual([]);
  });

  it('keeps the oldest watches within the tier after a downgrade', () => {
    const w = (owner: number, n: number, tier: Watch['ownerTier']): Watch => ({
      ownerKeyId: owner,
      mint: `M${owner}-${n}`,
      addedAt: 1000 - n,
      ownerTier: tier,
    });
    const free = Array.from({ length: 7 }, (_, n) => w(1, n, 'free'));
    const pro = Array.from({ length: 7 }, (_, n) => w(2, n, 'pro'));
    const kept = watchesInForce([...free, ...pro]);
    // Free keeps 5: the oldest ones (largest n here); Pro keeps all 7.
    expect(kept.filter((x) => x.ownerKeyId === 1).map((x) => x.mint)).toEqual(['M1-6', 'M1-5', 'M1-4', 'M1-3', 'M1-2']);
    expect(kept.filter((x) => x.ownerKeyId === 2)).toHaveLength(7);
  });

  it('writes the event with the mint, its multiple and market cap, and the probe link', () => {
    const text = watchMessage({
      mint: 'MintX',
      event: { event: 'graduated', line: 'graduated: the bonding curve is complete' },
      facts: { multiple: 3.456, market_cap_sol: 410.2, grad_prob: 0.71 } as never,
      probeUrl: 'https://lp.example/api/v1/probe/MintX',
    });
    expect(text).toBe(
      '👀 watched mint MintX: graduated: the bonding curve is complete\nmultiple 3.46x · market cap 410.20 SOL · grad_prob 71%\nprobe: https://lp.example/api/v1/probe/MintX\n/unwatch MintX to stop',
    );
  });
});
