/**
 * The seven alert rule kinds (spec section 1) and what each one's parameter means. Probabilities and odds are
 * stored as fractions (0..1), `vsol_burst` in SOL, `smart_in` as a wallet count, `runner_dev` as the creator's
 * least 5x rate; `wallet` watches one wallet and has no threshold.
 */
export const ALERT_KINDS = ['grad_prob', 'vsol_burst', 'runner_dev', 'smart_in', 'runner_5x', 'runner_10x', 'wallet'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const isAlertKind = (v: unknown): v is AlertKind => typeof v === 'string' && (ALERT_KINDS as readonly string[]).includes(v);

/** The kinds a Free owner may keep as its rule (spec section 8: "basic alerts"); every other kind is premium. */
export const BASIC_KINDS: ReadonlySet<AlertKind> = new Set(['grad_prob', 'vsol_burst']);
export const isPremiumKind = (k: AlertKind): boolean => !BASIC_KINDS.has(k);

export type AlertRule = {
  id: number;
  /** The API key that owns the rule; null for the service's own audited rule (see the audit). */
  ownerKeyId: number | null;
  kind: AlertKind;
  /** Fraction for grad_prob / runner_* / runner_dev, SOL for vsol_burst, a count for smart_in, 0 for wallet. */
  threshold: number;
  /** The watched wallet (kind `wallet` only). */
  wallet: string | null;
};

export type RuleParam = { threshold: number; wallet: string | null };
export type ParamResult = { ok: true; param: RuleParam } | { ok: false; reason: string };

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Reads a percentage as typed ("70", "70%", "0.7" is refused: one unit only, so 0.7 never means 0.7 %). */
function percent(text: string): number | null {
  const m = /^(\d{1,3}(?:\.\d{1,2})?)\s*%?$/.exec(text.trim());
  if (!m) return null;
  const v = Number(m[1]);
  return v > 0 && v <= 100 ? v / 100 : null;
}

/** Parses a rule's parameter as a user types it in the bot (`/alert grad_prob 70`, `/alert wallet <address>`). */
export function parseRuleParam(kind: AlertKind, text: string): ParamResult {
  const t = text.trim();
  switch (kind) {
    case 'grad_prob':
    case 'runner_5x':
    case 'runner_10x':
    case 'runner_dev': {
      const p = percent(t);
      return p === null ? { ok: false, reason: `${kind} takes a percentage between 1 and 100, e.g. 70` } : { ok: true, param: { threshold: p, wallet: null } };
    }
    case 'vsol_burst': {
      const v = /^\d{1,4}(?:\.\d{1,3})?$/.test(t) ? Number(t) : NaN;
      return v > 0 && v <= 1000
        ? { ok: true, param: { threshold: v, wallet: null } }
        : { ok: false, reason: 'vsol_burst takes SOL added within 60 s, between 0.001 and 1000, e.g. 10' };
    }
    case 'smart_in': {
      const n = /^\d{1,2}$/.test(t) ? Number(t) : NaN;
      return n >= 1 && n <= 20
        ? { ok: true, param: { threshold: n, wallet: null } }
        : { ok: false, reason: 'smart_in takes a smart-wallet count between 1 and 20, e.g. 3' };
    }
    case 'wallet':
      return BASE58_ADDRESS.test(t) ? { ok: true, param: { threshold: 0, wallet: t } } : { ok: false, reason: 'wallet takes a full Solana wallet address' };
  }
}

/** How a rule reads in lists and messages. */
export function describeRule(r: Pick<AlertRule, 'kind' | 'threshold' | 'wallet'>): string {
  const pct = (x: number) => `${Math.round(x * 10_000) / 100}%`;
  switch (r.kind) {
    case 'grad_prob':
      return `graduation probability ≥ ${pct(r.threshold)}`;
    case 'vsol_burst':
      return `≥ ${r.threshold} SOL added within 60 s`;
    case 'runner_dev':
      return `creator with a 5x rate ≥ ${pct(r.threshold)} launches`;
    case 'smart_in':
      return `≥ ${r.threshold} smart wallets among top buyers`;
    case 'runner_5x':
      return `odds of 5x from now ≥ ${pct(r.threshold)}`;
    case 'runner_10x':
      return `odds of 10x from now ≥ ${pct(r.threshold)}`;
    case 'wallet':
      return `wallet ${r.wallet ?? '?'} buys a new mint`;
  }
}
