/**
 * The gate-validation outcome of one fire: did the price reach 2× the entry (the price when the alert fired)
 * within 30 minutes after graduation?
 *
 * - Prices counted: the graduation price (the curve's last price, at graduation) and every DEX checkpoint taken
 *   in [graduation, graduation + 30 min], both ends included. The lifecycle takes checkpoints at 5, 15 and 30
 *   min, so a spike between two of them is missed; both groups are sampled alike, which keeps their ratio fair.
 * - true when any counted price reaches the multiple; false when none does and at least one DEX checkpoint in the
 *   window has a price; null (unknown, left out of the groups) when none has: a source that was down is not
 *   evidence that the price stayed low.
 */
export const GATE_OUTCOME = Object.freeze({ multiple: 2, windowS: 1_800 });

export type GateOutcomeInput = {
  entryPriceSol: number;
  graduatedAtMs: number;
  graduationPriceSol: number;
  checkpoints: readonly { atMs: number; priceSol: number | null }[];
};

export function reachedMultipleAfterGraduation(i: GateOutcomeInput, o: { multiple: number; windowS: number } = GATE_OUTCOME): boolean | null {
  if (!(i.entryPriceSol > 0 && Number.isFinite(i.entryPriceSol))) throw new RangeError(`entry price must be a finite positive number, got ${i.entryPriceSol}`);
  const target = o.multiple * i.entryPriceSol;
  const endMs = i.graduatedAtMs + o.windowS * 1000;
  let priced = false;
  let reached = i.graduationPriceSol >= target;
  for (const c of i.checkpoints) {
    if (c.atMs < i.graduatedAtMs || c.atMs > endMs || c.priceSol === null) continue;
    priced = true;
    if (c.priceSol >= target) reached = true;
  }
  if (reached) return true;
  return priced ? false : null;
}
