import { describeRule, parseRuleParam } from '../../../domain/alerts/alert-kinds';
import { canAddRule, canWatch, premiumFireAllowed, rulesInForce } from '../../../domain/alerts/rule-limits';

describe('alert rule limits per tier (spec section 8)', () => {
  it('Free keeps one basic rule and one premium-sample rule, nothing more', () => {
    expect(canAddRule('free', [], 'grad_prob')).toEqual({ ok: true });
    expect(canAddRule('free', [{ kind: 'vsol_burst' }], 'grad_prob')).toMatchObject({ ok: false, reason: expect.stringMatching(/one basic rule/) });
    expect(canAddRule('free', [{ kind: 'vsol_burst' }], 'smart_in')).toEqual({ ok: true });
    expect(canAddRule('free', [{ kind: 'wallet' }], 'runner_5x')).toMatchObject({ ok: false, reason: expect.stringMatching(/premium-sample/) });
    expect(canAddRule('free', [{ kind: 'wallet' }, { kind: 'grad_prob' }], 'grad_prob')).toMatchObject({ ok: false });
  });

  it('Builder has 10 rules of any kind; Pro and Enterprise are unlimited', () => {
    const nine = Array.from({ length: 9 }, () => ({ kind: 'smart_in' as const }));
    expect(canAddRule('builder', nine, 'wallet')).toEqual({ ok: true });
    expect(canAddRule('builder', [...nine, { kind: 'grad_prob' }], 'grad_prob')).toMatchObject({ ok: false, reason: expect.stringMatching(/10 alert rules/) });
    const thousand = Array.from({ length: 1000 }, () => ({ kind: 'wallet' as const }));
    expect(canAddRule('pro', thousand, 'wallet')).toEqual({ ok: true });
    expect(canAddRule('enterprise', thousand, 'runner_10x')).toEqual({ ok: true });
  });

  it('after a downgrade the oldest rules within the new limits stay in force', () => {
    const rules = [
      { id: 5, kind: 'smart_in' as const },
      { id: 2, kind: 'wallet' as const },
      { id: 9, kind: 'grad_prob' as const },
      { id: 3, kind: 'vsol_burst' as const },
    ];
    expect(rulesInForce('free', rules).map((r) => r.id)).toEqual([2, 3]);
    expect(rulesInForce('builder', rules).map((r) => r.id)).toEqual([2, 3, 5, 9]);
    const twelve = Array.from({ length: 12 }, (_, i) => ({ id: 12 - i, kind: 'grad_prob' as const }));
    expect(rulesInForce('builder', twelve).map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('the premium sample reopens exactly 24 h after the last one', () => {
    const day = 24 * 3600_000;
    expect(premiumFireAllowed('free', null, 0)).toBe(true);
    expect(premiumFireAllowed('free', 0, day - 1)).toBe(false);
    expect(premiumFireAllowed('free', 0, day)).toBe(true);
    expect(premiumFireAllowed('builder', 0, 1)).toBe(true);
  });

  it('watchlists hold 5 mints on Free, unlimited when paid', () => {
    expect(canWatch('free', 4)).toEqual({ ok: true });
    expect(canWatch('free', 5)).toMatchObject({ ok: false });
    expect(canWatch('builder', 10_000)).toEqual({ ok: true });
  });
});

describe('rule parameters as typed in the bot', () => {
  it('percentages for probabilities, with the threshold stored as a fraction', () => {
    expect(parseRuleParam('grad_prob', '70')).toEqual({ ok: true, param: { threshold: 0.7, wallet: null } });
    expect(parseRuleParam('runner_10x', '12.5%')).toEqual({ ok: true, param: { threshold: 0.125, wallet: null } });
    expect(parseRuleParam('grad_prob', '0')).toMatchObject({ ok: false });
    expect(parseRuleParam('grad_prob', '101')).toMatchObject({ ok: false });
    expect(parseRuleParam('grad_prob', 'high')).toMatchObject({ ok: false });
  });

  it('SOL for vsol_burst, a count for smart_in, an address for wallet', () => {
    expect(parseRuleParam('vsol_burst', '10')).toEqual({ ok: true, param: { threshold: 10, wallet: null } });
    expect(parseRuleParam('vsol_burst', '-1')).toMatchObject({ ok: false });
    expect(parseRuleParam('smart_in', '3')).toEqual({ ok: true, param: { threshold: 3, wallet: null } });
    expect(parseRuleParam('smart_in', '21')).toMatchObject({ ok: false });
    const w = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    expect(parseRuleParam('wallet', w)).toEqual({ ok: true, param: { threshold: 0, wallet: w } });
    expect(parseRuleParam('wallet', 'not-a-wallet')).toMatchObject({ ok: false });
    expect(describeRule({ kind: 'grad_prob', threshold: 0.7, wallet: null })).toBe('graduation probability ≥ 70%');
  });
});
