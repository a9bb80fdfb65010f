import type { CreateEvent, TradeEvent } from '../../domain/launch/launch-events';
import { MintTape } from '../../domain/launch/mint-tape';

/**
 * A hand-built mint on the real curve: buys and sells move the constant-product reserves as the launchpad
 * does, so prices, shares and multiples in tests follow from the trades, not from hand-set numbers.
 */
export const T0 = Date.parse('2026-11-01T00:00:00Z');
export const CREATE_SLOT = 1000;

export function handBuiltMint(o: { mint?: string; creator?: string; slot?: number | null; at?: number } = {}) {
  const at = o.at ?? T0;
  const create: CreateEvent = {
    kind: 'create',
    signature: `create-${o.mint ?? 'MINT'}`,
    ordinal: 0,
    slot: o.slot === undefined ? CREATE_SLOT : o.slot,
    at: new Date(at),
    source: 'test',
    mint: o.mint ?? 'MINT',
    name: 'Test',
    symbol: 'TST',
    uri: '',
    bondingCurve: 'CURVE',
    creator: o.creator ?? 'DEV',
    mayhem: false,
    vSolLamports: 30e9,
    vTokensRaw: 1_073e12,
  };
  let vSol = create.vSolLamports;
  let vTok = create.vTokensRaw;
  let n = 0;
  const trades: TradeEvent[] = [];
  const base = (atS: number, trader: string, slot?: number) => ({
    kind: 'trade' as const,
    signature: `sig-${create.mint}-${n++}`,
    ordinal: 0,
    slot: slot ?? CREATE_SLOT + 1 + Math.floor(atS * 2.5),
    at: new Date(at + atS * 1000),
    source: 'test',
    mint: create.mint,
    trader,
  });
  return {
    create,
    trades,
    /** `sol` SOL in at `atS` seconds of age; returns the tokens bought. */
    buy(atS: number, trader: string, sol: number, slot?: number): number {
      const k = vSol * vTok;
      vSol += sol * 1e9;
      const newTok = Math.round(k / vSol);
      const tokens = vTok - newTok;
      vTok = newTok;
      trades.push({ ...base(atS, trader, slot), isBuy: true, solLamports: sol * 1e9, tokensRaw: tokens, vSolLamports: vSol, vTokensRaw: vTok });
      return tokens;
    },
    /** `tokens` raw units sold back to the curve at `atS`. */
    sell(atS: number, trader: string, tokens: number): void {
      const k = vSol * vTok;
      vTok += tokens;
      const newSol = Math.round(k / vTok);
      const sol = vSol - newSol;
      vSol = newSol;
      trades.push({ ...base(atS, trader), isBuy: false, solLamports: sol, tokensRaw: tokens, vSolLamports: vSol, vTokensRaw: vTok });
    },
    tape(): MintTape {
      const t = new MintTape(create);
      for (const x of trades) t.apply(x);
      return t;
    },
  };
}
