/**
 * Decides what the transfers carrying one intent's memo amount to. Pure: the treasury scan supplies the
 * transfers (successful transactions only, what reached the treasury), the intent supplies its terms. Amounts are
 * integer `units` of the intent's currency (domain/billing/pay-with.ts): lamports for a SOL intent, the mint's raw
 * units for a token intent. The rules do not depend on which.
 *
 * Rules, in the order they apply:
 * - A transfer counts when it was confirmed no later than the intent's `expires_at` (block time; the time we first
 *   saw it when the node gives none). Later transfers are recorded as `late` and never activate anything: the
 *   payer was told to pay before that time, and an operator settles them by hand.
 * - Partial payments add up. Wallets cannot always send an exact amount in one go (a payer short of fees sends
 *   what they can, then tops up under the same memo), and refusing to add them up would strand the money.
 *   Transfers are summed in chain order (slot, then signature); the one that brings the sum to the price
 *   `completes` the payment.
 * - Anything counted beyond the price is `excess`: an overpayment in one transfer, or further transfers with the
 *   same memo after completion (`after_completion`, e.g. a wallet that sent twice). They are recorded; the plan
 *   is activated once, by the intent, never again per transfer.
 */
export type MemoTransfer = { signature: string; slot: number; blockTime: Date | null; seenAt: Date; units: bigint };
export type IntentTerms = { amountUnits: bigint; expiresAt: Date };

export type PaymentStatus = 'pending' | 'underpaid' | 'paid';

export type PaymentDecision = {
  status: PaymentStatus;
  /** Everything that reached the treasury under this memo, late transfers included. */
  receivedUnits: bigint;
  /** What counts toward the price: transfers confirmed before the intent expired. */
  countedUnits: bigint;
  shortfallUnits: bigint;
  excessUnits: bigint;
  completedBy: string | null;
  counted: string[];
  afterCompletion: string[];
  late: string[];
};

const chainOrder = (a: MemoTransfer, b: MemoTransfer) => a.slot - b.slot || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0);

export function decidePayment(terms: IntentTerms, transfers: readonly MemoTransfer[]): PaymentDecision {
  const d: PaymentDecision = {
    status: 'pending',
    receivedUnits: 0n,
    countedUnits: 0n,
    shortfallUnits: terms.amountUnits,
    excessUnits: 0n,
    completedBy: null,
    counted: [],
    afterCompletion: [],
    late: [],
  };
  const seen = new Set<string>();
  for (const t of [...transfers].sort(chainOrder)) {
    if (seen.has(t.signature) || t.units <= 0n) continue;
    seen.add(t.signature);
    d.receivedUnits += t.units;
    const confirmedAt = t.blockTime ?? t.seenAt;
    if (confirmedAt.getTime() > terms.expiresAt.getTime()) {
      d.late.push(t.signature);
      continue;
    }
    if (d.completedBy) d.afterCompletion.push(t.signature);
    else d.counted.push(t.signature);
    d.countedUnits += t.units;
    if (!d.completedBy && d.countedUnits >= terms.amountUnits) d.completedBy = t.signature;
  }
  if (d.completedBy) d.status = 'paid';
  else if (d.countedUnits > 0n) d.status = 'underpaid';
  d.shortfallUnits = d.countedUnits >= terms.amountUnits ? 0n : terms.amountUnits - d.countedUnits;
  d.excessUnits = d.countedUnits > terms.amountUnits ? d.countedUnits - terms.amountUnits : 0n;
  return d;
}

/** The status an intent shows: one with nothing (or not enough) counted stays open until it expires. */
export type IntentStatus = 'pending' | 'underpaid' | 'paid' | 'expired' | 'activated';

export function intentStatusAfter(decision: PaymentDecision, expired: boolean): Exclude<IntentStatus, 'activated'> {
  if (decision.status === 'pending' && expired) return 'expired';
  return decision.status;
}
