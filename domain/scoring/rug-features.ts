import type { MintTape } from '../launch/mint-tape';
import { creatorHoldingShare, holderConcentration } from '../launch/rug-heuristics';

/**
 * The rug model's view of a mint at a fixed age: the rug heuristics as numbers, the creator's own selling,
 * and how busy and one-sided the trading is. Computed by the same function for a live mint and for every
 * corpus row (the snapshot logged with the prediction), so scoring and training agree on definitions.
 */
export type RugFeatures = {
  bundlePct: number;
  bundleSoldShare: number;
  top10HolderShare: number;
  creatorHoldingShare: number;
  /** Tokens the creator sold ÷ tokens it bought; 0 without a creator buy. */
  creatorSoldShare: number;
  /** Fresh wallets among the first (up to three) buyers. */
  freshFirst3: number;
  sniperCount: number;
  /** Sells ÷ trades; 0 without trades. */
  sellShare: number;
  logTrades: number;
  vSolGrowthSol: number;
};

export const RUG_FEATURE_KEYS = [
  'bundlePct',
  'bundleSoldShare',
  'top10HolderShare',
  'creatorHoldingShare',
  'creatorSoldShare',
  'freshFirst3',
  'sniperCount',
  'sellShare',
  'logTrades',
  'vSolGrowthSol',
] as const satisfies readonly (keyof RugFeatures)[];

export const rugVector = (f: RugFeatures): number[] => RUG_FEATURE_KEYS.map((k) => f[k]);

/** `tape` holds the trades up to the scoring age only; `freshFirst3` counts fresh wallets among its first buyers. */
export function computeRugFeatures(tape: MintTape, freshFirst3: number): RugFeatures {
  const b = tape.bundle();
  const creator = tape.wallets.get(tape.create.creator);
  return {
    bundlePct: Math.min(1, b.pct),
    bundleSoldShare: b.soldShare,
    top10HolderShare: holderConcentration(tape),
    creatorHoldingShare: creatorHoldingShare(tape),
    creatorSoldShare: creator && creator.bought > 0 ? Math.min(1, creator.sold / creator.bought) : 0,
    freshFirst3,
    sniperCount: tape.snipers(),
    sellShare: tape.trades > 0 ? tape.sells / tape.trades : 0,
    logTrades: Math.log1p(tape.trades),
    vSolGrowthSol: (tape.vSol - tape.create.vSolLamports) / 1e9,
  };
}
