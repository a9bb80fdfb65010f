import type { MintTape } from '../launch/mint-tape';

/**
 * What the from-now runner model sees of a mint at a moment: its tape folded up to that moment. The same function
 * reads the live projector's tape at a refresh and a corpus row's tape folded up to its grid age, so the two can
 * never disagree on a definition (runner-grid.ts builds the corpus side).
 *
 * Decisions:
 * - The curve position enters once, as ln(price ÷ launch price): on a bonding curve vSol, its growth and the
 *   multiple are one quantity, and counting it three times would drown the trading behaviour.
 * - `offPeak` (price ÷ highest price so far) tells a mint at its high from one that already gave it back, which the
 *   position alone cannot: from-now odds are about what is left.
 * - `vSolAdded60sSol` is the momentum of the last minute (net virtual SOL added), as the live list's signals read it.
 * - The creator is not a buyer or a holder here either (mint-features.ts says why); `creatorSold` is its own feature.
 */
export type RunnerNowFeatures = {
  logMult: number;
  logTrades: number;
  logBuyers: number;
  topHolderShare: number;
  sellShare: number;
  offPeak: number;
  vSolAdded60sSol: number;
  creatorSold: number;
};

export const RUNNER_NOW_FEATURE_KEYS = [
  'logMult',
  'logTrades',
  'logBuyers',
  'topHolderShare',
  'sellShare',
  'offPeak',
  'vSolAdded60sSol',
  'creatorSold',
] as const;

export const runnerNowVector = (f: RunnerNowFeatures): number[] => RUNNER_NOW_FEATURE_KEYS.map((k) => f[k]);

/** The features of `tape` as of `nowMs`; the tape must hold no trade after `nowMs` (its caller folds up to then). */
export function runnerNowFeatures(tape: MintTape, nowMs: number): RunnerNowFeatures {
  const creator = tape.create.creator;
  let buyers = 0;
  let held = 0;
  let top = 0;
  let creatorSold = 0;
  for (const [wallet, w] of tape.wallets) {
    if (wallet === creator) {
      if (w.sold > 0) creatorSold = 1;
      continue;
    }
    if (w.bought > 0) buyers++;
    held += w.tokens;
    top = Math.max(top, w.tokens);
  }
  const price = tape.price;
  return {
    logMult: Math.log(price / tape.launchPrice),
    logTrades: Math.log1p(tape.trades),
    logBuyers: Math.log1p(buyers),
    topHolderShare: held > 0 ? top / held : 0,
    sellShare: tape.trades > 0 ? tape.sells / tape.trades : 0,
    offPeak: tape.peakPrice > 0 ? price / tape.peakPrice : 1,
    vSolAdded60sSol: tape.activity60s(nowMs).vSolAdded / 1e9,
    creatorSold,
  };
}
