/**
 * Which wallets the exchange's public leaderboard adds to the watched set (leaderboard-v1): the `top` wallets by
 * realised-and-unrealised PnL over the last 30 days (the leaderboard's `month` window) among accounts worth at
 * least `minAccountValueUsd` that traded in that window and made money in it. PnL, not ROI: a small account's
 * ROI swings on one lucky trade, and the floor on account value keeps dust accounts out. The trades stream finds
 * wallets when they trade big; this finds the ones that have been right for a month, before their next trade.
 */
export const LEADERBOARD_RULE_VERSION = 'leaderboard-v1';

export type LeaderboardWindowName = 'day' | 'week' | 'month' | 'allTime';
export type LeaderboardWindow = { pnlUsd: number; roi: number; volumeUsd: number };
export type LeaderboardEntry = { wallet: string; accountValueUsd: number; windows: Partial<Record<LeaderboardWindowName, LeaderboardWindow>> };
export type LeaderboardRule = { top: number; minAccountValueUsd: number };

export function leaderboardPicks(rows: readonly LeaderboardEntry[], rule: LeaderboardRule): string[] {
  const eligible = rows.filter((r) => {
    const m = r.windows.month;
    return r.accountValueUsd >= rule.minAccountValueUsd && m !== undefined && m.volumeUsd > 0 && m.pnlUsd > 0;
  });
  eligible.sort((a, b) => b.windows.month!.pnlUsd - a.windows.month!.pnlUsd || b.windows.month!.roi - a.windows.month!.roi || (a.wallet < b.wallet ? -1 : 1));
  const picked: string[] = [];
  const seen = new Set<string>();
  for (const r of eligible) {
    if (picked.length >= rule.top) break;
    const w = r.wallet.toLowerCase();
    if (seen.has(w)) continue;
    seen.add(w);
    picked.push(w);
  }
  return picked;
}
