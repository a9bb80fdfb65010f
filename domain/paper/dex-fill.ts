import { CURVE } from '../launch/launch-events';
import { checkBps, feeOn } from './curve-fees';
import { pricePerToken } from './curve-fill';

/**
 * Paper sales after graduation, priced at the DEX price the price client gives (SOL per whole token: the mint's
 * USD price over SOL's). The public service sold at that last price and ignored its own impact; the price API
 * gives no pool depth, so the impact is modelled, and the model is configuration:
 *
 * - `constant_product` (default): the AMM graduates migrate to is a constant-product pool. Its k is taken from
 *   the migration, when the curve's real reserves move into the pool: about 85 SOL (115 virtual − 30 initial)
 *   against the 206.9M tokens never sold on the curve (supply 1,000M − 793.1M), k = 85e9 lamports × 2.069e14
 *   raw. At a quoted price p the pool holds tokens = sqrt(k ÷ p) (p in lamports per raw unit), and a sale of N
 *   tokens returns N × p × tokens ÷ (tokens + N) before the fee. Liquidity added or removed after migration, and
 *   fees accrued to the pool, are unknown to us, so this is an estimate; at 0.1 SOL it costs about 0.1%.
 * - `none`: N × p before the fee, as the public service priced it.
 *
 * Fee: the pool's trade fee out of the SOL received, rounded up. Default 30 bps (20 LP + 5 protocol + 5 coin
 * creator, the PumpSwap GlobalConfig's three parts in idl/pump_amm.json; its newer fee tiers by market cap are
 * why it is configuration).
 */
export type DexImpactModel = { kind: 'none' } | { kind: 'constant_product'; poolSolLamports: number; poolTokensRaw: number };

export type DexConfig = { feeBps: number; impact: DexImpactModel };

export const MIGRATION_POOL: DexImpactModel = Object.freeze({
  kind: 'constant_product',
  poolSolLamports: CURVE.graduationVSolLamports - CURVE.initialVSolLamports,
  poolTokensRaw: CURVE.totalSupplyRaw - CURVE.realTokensForSaleRaw,
});

export const DEFAULT_DEX_CONFIG: DexConfig = Object.freeze({ feeBps: 30, impact: MIGRATION_POOL });

export type DexSell = {
  ok: true;
  venue: 'dex';
  side: 'sell';
  tokensRaw: number;
  /** The quoted price the sale was priced at. */
  spotPriceSol: number;
  /** SOL before the fee, after the modelled impact. */
  grossLamports: number;
  feeLamports: number;
  proceedsLamports: number;
  executionPriceSol: number;
  effectivePriceSol: number;
  /** 1 − executionPrice ÷ spotPrice: the modelled impact, fee excluded. */
  slippage: number;
  impactModel: DexImpactModel['kind'];
};

export function checkDexConfig(c: DexConfig): DexConfig {
  checkBps(c.feeBps, 'DEX fee');
  if (c.impact.kind === 'constant_product') {
    const { poolSolLamports: s, poolTokensRaw: t } = c.impact;
    if (!Number.isSafeInteger(s) || s <= 0 || !Number.isSafeInteger(t) || t <= 0)
      throw new RangeError('the DEX pool must hold a positive whole number of lamports and raw tokens');
  }
  return c;
}

/** Price as a whole number of 1e-18 SOL per token, so the spot value of a sale is exact integer arithmetic. */
const ATTO = 10n ** 18n;
/** lamports = raw × price(SOL per token) × 1e9 ÷ 1e6 = raw × priceAtto ÷ 1e15. */
const RAW_ATTO_TO_LAMPORTS = 10n ** 15n;

export function sellOnDex(tokensRaw: number, priceSolPerToken: number, c: DexConfig): DexSell {
  if (!Number.isSafeInteger(tokensRaw) || tokensRaw <= 0) throw new RangeError(`tokens must be a positive safe integer, got ${tokensRaw}`);
  if (!(priceSolPerToken > 0 && Number.isFinite(priceSolPerToken))) throw new RangeError(`DEX price must be a finite positive number, got ${priceSolPerToken}`);
  checkDexConfig(c);
  const n = BigInt(tokensRaw);
  const priceAtto = BigInt(Math.round(priceSolPerToken * Number(ATTO)));
  const spotValue = (n * priceAtto) / RAW_ATTO_TO_LAMPORTS;
  let gross = spotValue;
  if (c.impact.kind === 'constant_product') {
    const k = c.impact.poolSolLamports * c.impact.poolTokensRaw;
    const lamportsPerRaw = priceSolPerToken * 1e3;
    const poolTokens = BigInt(Math.max(1, Math.round(Math.sqrt(k / lamportsPerRaw))));
    gross = (spotValue * poolTokens) / (poolTokens + n);
  }
  const fee = feeOn(gross, c.feeBps);
  const proceeds = gross > fee ? gross - fee : 0n;
  const execution = pricePerToken(Number(gross), tokensRaw);
  return {
    ok: true,
    venue: 'dex',
    side: 'sell',
    tokensRaw,
    spotPriceSol: priceSolPerToken,
    grossLamports: Number(gross),
    feeLamports: Number(fee),
    proceedsLamports: Number(proceeds),
    executionPriceSol: execution,
    effectivePriceSol: pricePerToken(Number(proceeds), tokensRaw),
    slippage: 1 - execution / priceSolPerToken,
    impactModel: c.impact.kind,
  };
}
