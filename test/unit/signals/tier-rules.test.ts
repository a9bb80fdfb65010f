import { decideTier, DEFAULT_TIER_RULES_VERSION, tierOf, tierRules, TIER_RULES } from '../../../domain/signals/tier-rules';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const v1 = tierRules('tiers-v1');

describe('signal tiers (tiers-v1)', () => {
  it('are the spec numbers, selected by version name', () => {
    expect(DEFAULT_TIER_RULES_VERSION).toBe('tiers-v1');
    expect(tierRules()).toBe(v1);
    // Changing a number means a new version entry: this pins v1 to spec section 2.
    expect(TIER_RULES['tiers-v1']).toEqual({ version: 'tiers-v1', actMinGp60: 0.25, watchMinGp60: 0.1, gp60AgeS: 60, gp60GraceS: 15 });
    expect(() => tierRules('tiers-v0')).toThrow(RangeError);
  });

  it('cuts at exactly 0.25 and 0.10', () => {
    expect(tierOf(v1, 1)).toBe('ACT');
    expect(tierOf(v1, 0.25)).toBe('ACT');
    expect(tierOf(v1, 0.2499999)).toBe('WATCH');
    expect(tierOf(v1, 0.1)).toBe('WATCH');
    expect(tierOf(v1, 0.0999999)).toBe('SCOUT');
    expect(tierOf(v1, 0)).toBe('SCOUT');
    expect(tierOf(v1, null)).toBe('SCOUT');
    expect(() => tierOf(v1, 1.2)).toThrow(RangeError);
    expect(() => tierOf(v1, NaN)).toThrow(RangeError);
  });

  it('holds a cross made before the 60 s score, and delivers it as soon as gp_60 is known', () => {
    const pending = decideTier(v1, { gp60: null, createdAtMs: T0, atMs: T0 + 40_000 });
    expect(pending).toEqual({ state: 'pending', rulesVersion: 'tiers-v1', deadlineMs: T0 + 75_000 });
    expect(decideTier(v1, { gp60: 0.3, createdAtMs: T0, atMs: T0 + 60_200 })).toEqual({
      state: 'deliverable',
      rulesVersion: 'tiers-v1',
      tier: 'ACT',
      gp60: 0.3,
      basis: 'gp_60',
    });
    // gp_30 plays no part: only gp_60 is an input.
    expect(decideTier(v1, { gp60: 0.1, createdAtMs: T0, atMs: T0 + 61_000 })).toMatchObject({ tier: 'WATCH' });
  });

  it('delivers a cross still without gp_60 at 75 s as SCOUT with gp_60 null', () => {
    expect(decideTier(v1, { gp60: null, createdAtMs: T0, atMs: T0 + 74_999 }).state).toBe('pending');
    expect(decideTier(v1, { gp60: null, createdAtMs: T0, atMs: T0 + 75_000 })).toEqual({
      state: 'deliverable',
      rulesVersion: 'tiers-v1',
      tier: 'SCOUT',
      gp60: null,
      basis: 'gp_60_missing',
    });
    // A cross made after the deadline without a score is deliverable at once.
    expect(decideTier(v1, { gp60: null, createdAtMs: T0, atMs: T0 + 100_000 })).toMatchObject({ state: 'deliverable', tier: 'SCOUT' });
  });
});
