/**
 * Decides what the transfers carrying one intent's memo amount to. Pure: the treasury scan supplies the
 * transfers (successful transactions only, lamports that reached the treasury), the intent supplies its terms.
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
export type MemoTransfer = { signature: string; slot: number; blockTime: Date | null; seenAt: Date; lamports: bigint };
export type IntentTerms = { amountLamports: bigint; expiresAt: Date };

export type PaymentStatus = 'pending' | 'underpaid' | 'paid';

export type PaymentDecision = {
  status: PaymentStatus;
  /** Everything that reached the treasury under this memo, late transfers included. */
  receivedLamports: bigint;
  /** What counts toward the price: transfers confirmed before the intent expired. */
  countedLamports: bigint;
  shortfallLamports: bigint;
  excessLamports: bigint;
  completedBy: string | null;
  counted: string[];
  afterCompletion: string[];
  late: string[];
};

const chainOrder = (a: MemoTransfer, b: MemoTransfer) => a.slot - b.slot || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0);

export function decidePayment(terms: IntentTerms, transfers: readonly MemoTransfer[]): PaymentDecision {
  const d: PaymentDecision = {
    status: 'pending',
    receivedLamports: 0n,
    countedLamports: 0n,
    shortfallLamports: terms.amountLamports,
    excessLamports: 0n,
    completedBy: null,
    counted: [],
    afterCompletion: [],
    late: [],
  };
  const seen = new Set<string>();
  for (const t of [...transfers].sort(chainOrder)) {
    if (seen.has(t.signature) || t.lamports <= 0n) continue;
    seen.add(t.signature);
    d.receivedLamports += t.lamports;
    const confirmedAt = t.blockTime ?? t.seenAt;
    if (confirmedAt.getTime() > terms.expiresAt.getTime()) {
      d.late.push(t.signature);
      continue;
    }
    if (d.completedBy) d.afterCompletion.push(t.signature);
    else d.counted.push(t.signature);
    d.countedLamports += t.lamports;
    if (!d.completedBy && d.countedLamports >= terms.amountLamports) d.completedBy = t.signature;
  }
  if (d.completedBy) d.status = 'paid';
  else if (d.countedLamports > 0n) d.status = 'underpaid';
  d.shortfallLamports = d.countedLamports >= terms.amountLamports ? 0n : terms.amountLamports - d.countedLamports;
  d.excessLamports = d.countedLamports > terms.amountLamports ? d.countedLamports - terms.amountLamports : 0n;
  return d;
}

/** The status an intent shows: one with nothing (or not enough) counted stays open until it expires. */
export type IntentStatus = 'pending' | 'underpaid' | 'paid' | 'expired' | 'activated';

export function intentStatusAfter(decision: PaymentDecision, expired: boolean): Exclude<IntentStatus, 'activated'> {
  if (decision.status === 'pending' && expired) return 'expired';
  return decision.status;
}
