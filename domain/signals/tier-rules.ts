/**
 * Signal tiers, as versioned configuration. The deployment picks a version by name (configuration holds the
 * name, never the numbers), and every composite prediction row stores the version it was tiered under, so a
 * change of rules is a new entry here and is visible in history. The public service's running rules drifted
 * from its documented ones (ACT ≥ 0.15 on the better of gp_30 / gp_60 against the documented gp_60 ≥ 0.25);
 * a number that can only change with its version name cannot drift silently.
 *
 * tiers-v1 (spec section 2):
 * - ACT: gp_60 ≥ 0.25;  WATCH: 0.10 ≤ gp_60 < 0.25;
 * - SCOUT: every other cross, i.e. gp_60 < 0.10, or no gp_60 by the deadline (below). gp_30 never decides a tier.
 * - A cross before the 60 s score exists is pending: it becomes deliverable as soon as gp_60 is known, or at the
 *   deadline, age 60 s + 15 s of grace, as SCOUT with gp_60 null (the score was skipped or is late; the 60 s
 *   score lands within 0.33 s of its due moment at 4 launches/s, so 15 s is far outside normal lateness and
 *   short next to the 1–3 s polling of execution bots). A gp_60 arriving after the deadline changes nothing: a
 *   delivered signal is immutable. Mayhem mints are never scored and never cross, so they never reach tiering.
 */
export type Tier = 'ACT' | 'WATCH' | 'SCOUT';

export type TierRules = {
  version: string;
  actMinGp60: number;
  watchMinGp60: number;
  /** The age of the score the tiers read. */
  gp60AgeS: number;
  /** How long past gp60AgeS a pending cross waits for its score. */
  gp60GraceS: number;
};

export const TIER_RULES: Readonly<Record<string, TierRules>> = {
  'tiers-v1': { version: 'tiers-v1', actMinGp60: 0.25, watchMinGp60: 0.1, gp60AgeS: 60, gp60GraceS: 15 },
};
export const DEFAULT_TIER_RULES_VERSION = 'tiers-v1';

export function tierRules(version: string = DEFAULT_TIER_RULES_VERSION): TierRules {
  const r = TIER_RULES[version];
  if (!r) throw new RangeError(`unknown tier rules ${version}; known: ${Object.keys(TIER_RULES).join(', ')}`);
  return r;
}

/** The tier of a cross with this gp_60 (null: no 60 s score, SCOUT). */
export function tierOf(rules: TierRules, gp60: number | null): Tier {
  if (gp60 === null) return 'SCOUT';
  if (!(gp60 >= 0 && gp60 <= 1)) throw new RangeError(`gp_60 must be a probability, got ${gp60}`);
  if (gp60 >= rules.actMinGp60) return 'ACT';
  if (gp60 >= rules.watchMinGp60) return 'WATCH';
  return 'SCOUT';
}

export type TierDecision =
  | { state: 'pending'; rulesVersion: string; /** Decide again at this time at the latest. */ deadlineMs: number }
  | { state: 'deliverable'; rulesVersion: string; tier: Tier; gp60: number | null; basis: 'gp_60' | 'gp_60_missing' };

/** Whether a cross is deliverable at `atMs`, and with which tier. */
export function decideTier(rules: TierRules, i: { gp60: number | null; createdAtMs: number; atMs: number }): TierDecision {
  if (i.gp60 !== null) return { state: 'deliverable', rulesVersion: rules.version, tier: tierOf(rules, i.gp60), gp60: i.gp60, basis: 'gp_60' };
  const deadlineMs = i.createdAtMs + (rules.gp60AgeS + rules.gp60GraceS) * 1000;
  if (i.atMs < deadlineMs) return { state: 'pending', rulesVersion: rules.version, deadlineMs };
  return { state: 'deliverable', rulesVersion: rules.version, tier: 'SCOUT', gp60: null, basis: 'gp_60_missing' };
}
