import { CURVE, priceSol } from '../launch/launch-events';
import { checkCurveFees, curveFeesOn, totalFeeBps, BPS, type CurveFees } from './curve-fees';

/**
 * Paper fills on the launchpad's bonding curve: constant product on the virtual reserves (vSol × vTokens = k),
 * integer amounts rounded as the program rounds them (in the curve's favour), fees as curve-fees.ts describes.
 *
 * Amounts are integers in base units (lamports; token raw units, 6 decimals). They travel as JS numbers, which
 * are exact for every amount the launchpad can hold (total supply 1e15 raw units < 2^53) and are plain JSON for
 * Temporal payloads and Postgres rows; every product and division is done in BigInt (products reach ~1e26).
 * Prices (SOL per whole token) and slippage are numbers for reporting only; no decision reads them.
 *
 * This is its own module rather than ingest/simulator/curve-math.ts: the simulator's buy ignores fees and rounds a
 * capped buy's cost slightly differently, and changing it would change the seeded market every test relies on.
 *
 * Paper fills do not move the market the next tick shows: a later sale is priced on reserves that never held the
 * position's own buy, which flatters the exit by roughly the buy's own impact (size / vSol, 0.1–0.3% at 0.1 SOL).
 */
export type CurveReserves = { vSolLamports: number; vTokensRaw: number };

/** Virtual tokens left when the real token reserve is sold out (graduation). */
export const FINAL_VTOKENS_RAW = CURVE.initialVTokensRaw - CURVE.realTokensForSaleRaw;

export type CurveRefusal = { ok: false; reason: 'curve_complete' | 'amount_too_small' };

export type CurveBuy = {
  ok: true;
  venue: 'curve';
  side: 'buy';
  budgetLamports: number;
  /** SOL that went into the curve, fees excluded. */
  solToCurveLamports: number;
  protocolFeeLamports: number;
  creatorFeeLamports: number;
  feeLamports: number;
  /** What the position cost: solToCurve + fees, never more than the budget. */
  solSpentLamports: number;
  /** Budget not spent (rounding dust, or the rest of a buy capped at the curve's completion). */
  refundLamports: number;
  tokensRaw: number;
  /** The buy asked for more than the real tokens left and was cut to them. */
  capped: boolean;
  /** This buy sold the last real token: the curve completes (graduates). */
  completesCurve: boolean;
  before: CurveReserves;
  after: CurveReserves;
  /** Price before the trade, SOL per token. */
  spotPriceSol: number;
  /** solToCurve ÷ tokens: the curve's price for this fill, before fees. */
  executionPriceSol: number;
  /** solSpent ÷ tokens: what a token cost, fees included. */
  effectivePriceSol: number;
  /** executionPrice ÷ spotPrice − 1: the price impact paid, fees excluded (they are reported apart). */
  slippage: number;
};

export type CurveSell = {
  ok: true;
  venue: 'curve';
  side: 'sell';
  tokensRaw: number;
  /** SOL the curve paid out before fees. */
  grossLamports: number;
  protocolFeeLamports: number;
  creatorFeeLamports: number;
  feeLamports: number;
  /** What the seller receives. */
  proceedsLamports: number;
  before: CurveReserves;
  after: CurveReserves;
  spotPriceSol: number;
  /** gross ÷ tokens. */
  executionPriceSol: number;
  /** proceeds ÷ tokens. */
  effectivePriceSol: number;
  /** 1 − executionPrice ÷ spotPrice: the price impact paid, fees excluded. */
  slippage: number;
};

const big = BigInt;
const num = Number;

function checkReserves(r: CurveReserves): void {
  if (!Number.isSafeInteger(r.vSolLamports) || r.vSolLamports <= 0)
    throw new RangeError(`vSol must be a positive whole number of lamports, got ${r.vSolLamports}`);
  if (!Number.isSafeInteger(r.vTokensRaw) || r.vTokensRaw <= 0)
    throw new RangeError(`vTokens must be a positive whole number of raw units, got ${r.vTokensRaw}`);
}

function checkAmount(x: number, what: string): void {
  if (!Number.isSafeInteger(x) || x < 0) throw new RangeError(`${what} must be a non-negative safe integer, got ${x}`);
}

export const realTokensRemaining = (r: CurveReserves) => r.vTokensRaw - FINAL_VTOKENS_RAW;
export const isCurveComplete = (r: CurveReserves) => realTokensRemaining(r) <= 0;
export const spotPrice = (r: CurveReserves) => priceSol(r.vSolLamports, r.vTokensRaw);

/** Price of `lamports` for `tokensRaw`, in SOL per whole token. */
export const pricePerToken = (lamports: number, tokensRaw: number) => lamports / 1e9 / (tokensRaw / 10 ** CURVE.tokenDecimals);

/**
 * Spends at most `budgetLamports`, fees included. The SOL into the curve is the largest amount whose fees,
 * each rounded up, still fit the budget: floor(budget × 10,000 ÷ (10,000 + fee bps)), lowered by the odd
 * lamport that the round-up pushes over. Tokens out = floor(vTokens × in ÷ (vSol + in)).
 *
 * A buy worth more than the real tokens left is cut to exactly those tokens at the least SOL that buys them,
 * ceil(vSol × tokens ÷ (vTokens − tokens)), fees on that; the rest of the budget is refunded, as the program
 * does for the buy that completes the curve (it never takes more than the tokens cost; its own formula is
 * floor + 1, one lamport more when the division is exact).
 */
export function buyOnCurve(r: CurveReserves, budgetLamports: number, fees: CurveFees): CurveBuy | CurveRefusal {
  checkReserves(r);
  checkAmount(budgetLamports, 'budget');
  checkCurveFees(fees);
  const remaining = big(realTokensRemaining(r));
  if (remaining <= 0n) return { ok: false, reason: 'curve_complete' };
  const vSol = big(r.vSolLamports);
  const vTok = big(r.vTokensRaw);
  const budget = big(budgetLamports);
  let toCurve = (budget * big(BPS)) / big(BPS + totalFeeBps(fees));
  while (toCurve > 0n && toCurve + curveFeesOn(toCurve, fees).total > budget) toCurve -= 1n;
  let tokens = toCurve > 0n ? (vTok * toCurve) / (vSol + toCurve) : 0n;
  let capped = false;
  if (tokens > remaining) {
    capped = true;
    tokens = remaining;
    toCurve = (vSol * tokens + (vTok - tokens) - 1n) / (vTok - tokens);
  }
  if (tokens <= 0n) return { ok: false, reason: 'amount_too_small' };
  const f = curveFeesOn(toCurve, fees);
  const spent = toCurve + f.total;
  const spot = spotPrice(r);
  const execution = pricePerToken(num(toCurve), num(tokens));
  return {
    ok: true,
    venue: 'curve',
    side: 'buy',
    budgetLamports,
    solToCurveLamports: num(toCurve),
    protocolFeeLamports: num(f.protocol),
    creatorFeeLamports: num(f.creator),
    feeLamports: num(f.total),
    solSpentLamports: num(spent),
    refundLamports: num(budget - spent),
    tokensRaw: num(tokens),
    capped,
    completesCurve: tokens === remaining,
    before: { ...r },
    after: { vSolLamports: num(vSol + toCurve), vTokensRaw: num(vTok - tokens) },
    spotPriceSol: spot,
    executionPriceSol: execution,
    effectivePriceSol: pricePerToken(num(spent), num(tokens)),
    slippage: execution / spot - 1,
  };
}

/**
 * Sells `tokensRaw`: gross = floor(vSol × tokens ÷ (vTokens + tokens)), fees (each rounded up) out of it. A
 * completed curve takes no more trades (the program refuses them; the mint trades on the AMM, see dex-fill.ts).
 */
export function sellOnCurve(r: CurveReserves, tokensRaw: number, fees: CurveFees): CurveSell | CurveRefusal {
  checkReserves(r);
  checkAmount(tokensRaw, 'tokens');
  checkCurveFees(fees);
  if (isCurveComplete(r)) return { ok: false, reason: 'curve_complete' };
  if (tokensRaw === 0) return { ok: false, reason: 'amount_too_small' };
  const vSol = big(r.vSolLamports);
  const vTok = big(r.vTokensRaw);
  const tokens = big(tokensRaw);
  const gross = (vSol * tokens) / (vTok + tokens);
  const f = curveFeesOn(gross, fees);
  const proceeds = gross > f.total ? gross - f.total : 0n;
  const spot = spotPrice(r);
  const execution = pricePerToken(num(gross), tokensRaw);
  return {
    ok: true,
    venue: 'curve',
    side: 'sell',
    tokensRaw,
    grossLamports: num(gross),
    protocolFeeLamports: num(f.protocol),
    creatorFeeLamports: num(f.creator),
    feeLamports: num(f.total),
    proceedsLamports: num(proceeds),
    before: { ...r },
    after: { vSolLamports: num(vSol - gross), vTokensRaw: num(vTok + tokens) },
    spotPriceSol: spot,
    executionPriceSol: execution,
    effectivePriceSol: pricePerToken(num(proceeds), tokensRaw),
    slippage: 1 - execution / spot,
  };
}
