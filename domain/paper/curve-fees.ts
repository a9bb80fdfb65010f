/**
 * The launchpad's trade fee on the bonding curve, as configuration. The program's Global account carries
 * `fee_basis_points` (protocol) and `creator_fee_basis_points` (idl/pump.json); every TradeEvent repeats the
 * pair it charged. Newer program versions also keep a FeeConfig account with fee tiers by market cap, so the
 * rate is a value the caller passes for the moment of the trade, never a constant in this code.
 *
 * Default: 95 bps protocol + 30 bps creator (1.25% in all), the pair on every fee-paying TradeEvent in the
 * recorded `helius/logs_subscribe_pumpfun.jsonl` session (November 2026 captures; "cashback" coins charged the
 * same 30 bps as cashback instead of a creator fee, which a paper trader never sees back, so it is the same cost).
 *
 * How the program charges it (checked against those events: fee = ceil(sol_amount × bps / 10,000), each part
 * rounded up on its own):
 * - buy: the fee is added on top of the SOL that goes into the curve, so a trader spending X gets X net of fee
 *   into the curve (see curve-fill.ts);
 * - sell: the fee is taken out of the SOL the curve pays out.
 */
export type CurveFees = {
  protocolBps: number;
  creatorBps: number;
};

export const DEFAULT_CURVE_FEES: CurveFees = Object.freeze({ protocolBps: 95, creatorBps: 30 });

export const BPS = 10_000;

export type FeeParts = { protocol: bigint; creator: bigint; total: bigint };

export function checkBps(bps: number, what: string): number {
  if (!Number.isInteger(bps) || bps < 0 || bps >= BPS) throw new RangeError(`${what} must be whole basis points in [0, ${BPS}), got ${bps}`);
  return bps;
}

export function checkCurveFees(f: CurveFees): CurveFees {
  checkBps(f.protocolBps, 'protocol fee');
  checkBps(f.creatorBps, 'creator fee');
  checkBps(f.protocolBps + f.creatorBps, 'total curve fee');
  return f;
}

export const totalFeeBps = (f: CurveFees) => f.protocolBps + f.creatorBps;

/** ceil(amount × bps / 10,000), the program's rounding (in its favour). */
export function feeOn(amount: bigint, bps: number): bigint {
  if (amount <= 0n || bps === 0) return 0n;
  const b = BigInt(bps);
  return (amount * b + BigInt(BPS) - 1n) / BigInt(BPS);
}

export function curveFeesOn(amount: bigint, f: CurveFees): FeeParts {
  const protocol = feeOn(amount, f.protocolBps);
  const creator = feeOn(amount, f.creatorBps);
  return { protocol, creator, total: protocol + creator };
}
