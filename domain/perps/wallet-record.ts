import { closedEntries } from './closed-entries';
import type { WalletFill, WalletSnapshot } from './perps-types';

/**
 * A watched wallet's record, from its fills and its latest clearinghouse snapshot:
 * - realised PnL = Σ closedPnl − Σ fees over the fills given (lifetime as far as the fills reach);
 * - ROI over 30 days = PnL of the last 30 days ÷ the equity the wallet started the window with, taken as its
 *   account value now minus that PnL. Deposits and withdrawals inside the window are invisible to this (the
 *   `portfolio` endpoint's month history has them; a later version may use it). Below `minEquityUsd` of
 *   starting equity the ratio means nothing and ROI is null;
 * - win rate = share of closed entries (closed-entries.ts) with a positive PnL, null with none.
 */
export const ROI_WINDOW_MS = 30 * 24 * 60 * 60_000;

export type WalletRecord = {
  wallet: string;
  asOf: number;
  trades: number;
  volumeUsd: number;
  realizedPnlUsd: number;
  pnl30dUsd: number;
  roi30d: number | null;
  closedEntries: number;
  wins: number;
  winRate: number | null;
  accountValueUsd: number;
  openNotionalUsd: number;
  largestPositionUsd: number;
  firstFillAt: number | null;
  lastFillAt: number | null;
};

export function walletRecord(
  wallet: string,
  fills: readonly WalletFill[],
  snapshot: WalletSnapshot | null,
  asOf: number,
  opts: { minEquityUsd?: number } = {},
): WalletRecord {
  const since = asOf - ROI_WINDOW_MS;
  let volumeUsd = 0;
  let realizedPnlUsd = 0;
  let pnl30dUsd = 0;
  let firstFillAt: number | null = null;
  let lastFillAt: number | null = null;
  for (const f of fills) {
    const net = f.closedPnlUsd - f.feeUsd;
    volumeUsd += f.px * f.size;
    realizedPnlUsd += net;
    if (f.time >= since && f.time <= asOf) pnl30dUsd += net;
    firstFillAt = firstFillAt === null ? f.time : Math.min(firstFillAt, f.time);
    lastFillAt = lastFillAt === null ? f.time : Math.max(lastFillAt, f.time);
  }
  const { closed } = closedEntries(fills);
  const wins = closed.filter((c) => c.pnlUsd > 0).length;
  const accountValueUsd = snapshot?.accountValueUsd ?? 0;
  const startEquity = accountValueUsd - pnl30dUsd;
  const positions = snapshot?.positions ?? [];
  return {
    wallet,
    asOf,
    trades: fills.length,
    volumeUsd,
    realizedPnlUsd,
    pnl30dUsd,
    roi30d: snapshot && startEquity >= (opts.minEquityUsd ?? 100) ? pnl30dUsd / startEquity : null,
    closedEntries: closed.length,
    wins,
    winRate: closed.length ? wins / closed.length : null,
    accountValueUsd,
    openNotionalUsd: positions.reduce((s, p) => s + p.positionValueUsd, 0),
    largestPositionUsd: positions.reduce((m, p) => Math.max(m, p.positionValueUsd), 0),
    firstFillAt,
    lastFillAt,
  };
}
