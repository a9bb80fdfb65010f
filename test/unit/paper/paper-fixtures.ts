import { CURVE } from '../../../domain/launch/launch-events';
import { decideEntry } from '../../../domain/paper/entry-rules';
import { applyExitDecision, evaluateExit } from '../../../domain/paper/exit-rules';
import { sellOnDex } from '../../../domain/paper/dex-fill';
import { DEFAULT_PAPER_CONFIG, strategyById, type PaperConfig, type StrategyId } from '../../../domain/paper/paper-config';
import type { PaperPosition, Quote } from '../../../domain/paper/paper-position';

export const T0 = Date.parse('2026-12-01T00:00:00Z');
export const MIN = 60_000;
export const INITIAL = { vSolLamports: CURVE.initialVSolLamports, vTokensRaw: CURVE.initialVTokensRaw };

/** A DEX without fee or impact: a sale fetches tokens × price, so P&L can be set to the lamport. */
export const EXACT: PaperConfig = { ...DEFAULT_PAPER_CONFIG, dex: { feeBps: 0, impact: { kind: 'none' } } };

/** 0.1 SOL on a fresh curve with the default fee spends exactly 100,000,000 lamports for these tokens. */
export const ENTRY_COST = 100_000_000;
export const ENTRY_TOKENS = 3_520_918_746_848;

export function open(strategy: StrategyId = 'gp70', mint = 'MintA', atMs = T0, c: PaperConfig = EXACT): PaperPosition {
  const d = decideEntry(
    strategyById(strategy),
    { mint, ageS: 30, gradProb: 0.95, mayhem: false, atMs, reserves: INITIAL },
    { alreadyEntered: false, cashLamports: c.bankrollLamports },
    c,
  );
  if (!d.enter) throw new Error(d.reason);
  return d.position;
}

/** The DEX price (SOL per token) at which the whole entry sells for exactly `lamports` with EXACT. */
export function priceFor(lamports: number, tokens = ENTRY_TOKENS): number {
  const atto = (BigInt(lamports) * 10n ** 15n + BigInt(tokens) - 1n) / BigInt(tokens);
  const price = Number(atto) / 1e18;
  const got = sellOnDex(tokens, price, EXACT.dex).proceedsLamports;
  if (got !== lamports) throw new Error(`fixture price misses: ${got} for ${lamports}`);
  return price;
}

export const dex = (lamports: number): Quote => ({ kind: 'dex', priceSol: priceFor(lamports) });

/** A position closed at `atMs` by whatever the rules say about a DEX quote worth `lamports`. */
export function closedAt(p: PaperPosition, atMs: number, lamports: number, c: PaperConfig = EXACT): PaperPosition {
  const d = evaluateExit(p, { atMs, quote: dex(lamports) }, c);
  if (d.action !== 'close') throw new Error('fixture expected a close');
  return applyExitDecision(p, d);
}

/** A position still open, last seen at `atMs` with a DEX quote worth `lamports`. */
export function heldAt(p: PaperPosition, atMs: number, lamports: number, c: PaperConfig = EXACT): PaperPosition {
  const d = evaluateExit(p, { atMs, quote: dex(lamports) }, c);
  if (d.action !== 'hold') throw new Error('fixture expected a hold');
  return applyExitDecision(p, d);
}
