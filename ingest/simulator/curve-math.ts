import { CURVE } from '../../domain/launch/launch-events';

// Bound once: global lookups are slow under jest's vm sandbox (see seeded-random.ts).
const { floor } = Math;
const big = BigInt;
const num = Number;

/**
 * Constant-product swaps on the launchpad's virtual reserves (vSol * vTokens = k), as the program computes
 * them: integer amounts, rounded in the curve's favour, so k never decreases. The products reach ~3e25, past
 * 2^53, hence BigInt for the arithmetic; the reserves themselves fit a number. The 1% fee is ignored.
 */
export type CurveReserves = { vSolLamports: number; vTokensRaw: number };

export type Swap = CurveReserves & { solLamports: number; tokensRaw: number };

/** Virtual tokens left when the real reserve is sold out (graduation). */
export const FINAL_VTOKENS_RAW = CURVE.initialVTokensRaw - CURVE.realTokensForSaleRaw;

export const initialReserves = (): CurveReserves => ({ vSolLamports: CURVE.initialVSolLamports, vTokensRaw: CURVE.initialVTokensRaw });

export const realTokensRemaining = (r: CurveReserves) => r.vTokensRaw - FINAL_VTOKENS_RAW;

export const isComplete = (r: CurveReserves) => realTokensRemaining(r) <= 0 || r.vSolLamports >= CURVE.graduationVSolLamports;

/**
 * Spends `solLamports` on tokens. A buy larger than what is left is cut to the remaining real tokens (and the
 * SOL they cost), as the program does for the buy that completes the curve. Null when nothing can be bought.
 */
export function buy(r: CurveReserves, solLamports: number): Swap | null {
  const remaining = realTokensRemaining(r);
  if (remaining <= 0 || solLamports <= 0) return null;
  const vSol = big(r.vSolLamports);
  const vTok = big(r.vTokensRaw);
  let sol = big(floor(solLamports));
  let out = (vTok * sol) / (vSol + sol);
  if (out > big(remaining)) {
    out = big(remaining);
    // Ceiling, so the curve is never short-changed on the capped buy.
    sol = (vSol * out + (vTok - out) - 1n) / (vTok - out);
  }
  if (out <= 0n) return null;
  return { solLamports: num(sol), tokensRaw: num(out), vSolLamports: num(vSol + sol), vTokensRaw: num(vTok - out) };
}

/** Sells `tokensRaw` for SOL. Null when the sale would return nothing. */
export function sell(r: CurveReserves, tokensRaw: number): Swap | null {
  if (tokensRaw <= 0) return null;
  const vSol = big(r.vSolLamports);
  const vTok = big(r.vTokensRaw);
  const tokens = big(floor(tokensRaw));
  const solOut = (vSol * tokens) / (vTok + tokens);
  if (solOut <= 0n) return null;
  return { solLamports: num(solOut), tokensRaw: num(tokens), vSolLamports: num(vSol - solOut), vTokensRaw: num(vTok + tokens) };
}
