import type { Tier } from '../access/tiers';
import type { FireFacts, MintFacts } from './alert-evaluation';
import { RULE_LIMITS } from './rule-limits';

/**
 * What a watched mint tells its watchers (decided for issue 16): the two changes a trader holding or eyeing a mint
 * acts on at once and that the bot does not send otherwise. `graduated`: the bonding curve completed (the mint moves
 * to the AMM; exit liquidity changes). `rug:<flag>`: a rug heuristic (bundle share, holder concentration, fresh
 * first buyers, bundle dump) turned triggered. Each is sent at most once per (watch, event). Composite tier crosses
 * are not watch events: they are signals, sent by /signals to chats whose plan or holdings give signal access, and a
 * watchlist must not open them to a Free chat.
 */
export type WatchEvent = { event: string; line: string };

type RugFlagView = { flag?: string; value?: number; threshold?: number; triggered?: boolean };

export function watchEvents(f: Pick<MintFacts, 'mayhem' | 'graduated' | 'rugFlags'>): WatchEvent[] {
  if (f.mayhem) return [];
  const out: WatchEvent[] = [];
  if (f.graduated) out.push({ event: 'graduated', line: 'graduated: the bonding curve is complete' });
  for (const x of f.rugFlags as RugFlagView[])
    if (x && x.triggered && x.flag) out.push({ event: `rug:${x.flag}`, line: `rug flag ${x.flag} triggered (${x.value} ≥ ${x.threshold})` });
  return out;
}

export type Watch = { ownerKeyId: number; mint: string; addedAt: number; ownerTier: Tier };

/** The watches an owner's tier keeps in force: after a downgrade, the oldest within the tier's watchlist size. */
export function watchesInForce(watches: readonly Watch[]): Watch[] {
  const byOwner = new Map<number, Watch[]>();
  for (const w of watches) {
    const list = byOwner.get(w.ownerKeyId);
    if (list) list.push(w);
    else byOwner.set(w.ownerKeyId, [w]);
  }
  return [...byOwner.values()].flatMap((ws) =>
    [...ws].sort((a, b) => a.addedAt - b.addedAt || a.mint.localeCompare(b.mint)).slice(0, RULE_LIMITS[ws[0]!.ownerTier].watchlist),
  );
}

const pct = (x: number | null) => (x === null || !Number.isFinite(x) ? 'n/a' : `${Math.round(x * 1000) / 10}%`);

/** The plain-text message of one watch event, with what the trader needs beside it. */
export function watchMessage(o: { mint: string; event: WatchEvent; facts: FireFacts; probeUrl: string }): string {
  const f = o.facts;
  return [
    `👀 watched mint ${o.mint}: ${o.event.line}`,
    `multiple ${f.multiple.toFixed(2)}x · market cap ${f.market_cap_sol.toFixed(2)} SOL · grad_prob ${pct(f.grad_prob)}`,
    `probe: ${o.probeUrl}`,
    `/unwatch ${o.mint} to stop`,
  ].join('\n');
}
