import { describeRule, type AlertKind } from './alert-kinds';
import type { FireFacts } from './alert-evaluation';

const pct = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : `${Math.round(x * 1000) / 10}%`);
const num = (x: number | null | undefined, digits = 2) => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));

type CalibrationView = { confidence_band?: { lo?: number; hi?: number }; historical_actual_rate?: number | null; n?: number };

/** "cell 60 s × [0.5, 0.7): 41% graduated of 230": the calibration record read as a trader would. */
function calibrationLine(c: Record<string, unknown> | null, ageBucket: number | null): string | null {
  if (!c) return null;
  const v = c as CalibrationView;
  const band = v.confidence_band ? `[${v.confidence_band.lo}, ${v.confidence_band.hi})` : '?';
  return `calibration: cell ${ageBucket ?? '?'} s × ${band}: ${pct(v.historical_actual_rate ?? null)} graduated (n=${v.n ?? '?'})`;
}

/**
 * The plain-text message a fire sends (no parse mode: nothing in a mint's name can break markup): the mint, the
 * rule, the probability with its calibration cell, the multiple and market cap at the fire, rug flags, the probe link.
 */
export function alertMessage(o: {
  kind: AlertKind;
  threshold: number;
  wallet: string | null;
  mint: string;
  facts: FireFacts;
  probeUrl: string;
  premiumSample: boolean;
}): string {
  const f = o.facts;
  const triggered = (f.rug_flags as { flag?: string; triggered?: boolean }[]).filter((x) => x && x.triggered).map((x) => x.flag);
  const lines = [
    `🔔 ${o.kind} alert: ${describeRule(o)}`,
    `mint ${o.mint}`,
    `grad_prob ${pct(f.grad_prob)}${f.age_bucket === null ? '' : ` at ${f.age_bucket} s`}`,
    calibrationLine(f.calibration, f.age_bucket),
    `5x from now ${pct(f.runner_prob_5x_from_now)} · 10x from now ${pct(f.runner_prob_10x_from_now)}`,
    `multiple ${num(f.multiple)}x · market cap ${num(f.market_cap_sol)} SOL${f.market_cap_usd === null ? '' : ` ($${Math.round(f.market_cap_usd).toLocaleString('en-US')})`}`,
    `smart wallets ${f.smart_money_in} · +${num(f.v_sol_added_60s)} SOL in 60 s · creator 5x rate ${pct(f.rate_5x)} of ${f.n_launches}`,
    `rug flags: ${triggered.length ? triggered.join(', ') : 'none'}`,
    `probe: ${o.probeUrl}`,
    o.premiumSample ? 'Free plan: your premium sample for the next 24 h. /upgrade for more.' : null,
  ];
  return lines.filter((l): l is string => l !== null).join('\n');
}

/** A composite signal as the bot sends it (the same event as /api/v1/signals, read for a trader). */
export function signalMessage(
  s: {
    tier: string;
    mint: string;
    name: string;
    symbol: string;
    gp_60: number | null;
    smart_money_in: number;
    max_mult: number;
    market_cap_usd: number;
    age_s: number;
  },
  probeUrl: string,
): string {
  return [
    `📡 ${s.tier} signal: ${s.name} (${s.symbol})`,
    `mint ${s.mint}`,
    `gp_60 ${pct(s.gp_60)} · smart wallets ${s.smart_money_in} · max ${num(s.max_mult)}x · market cap $${Math.round(s.market_cap_usd).toLocaleString('en-US')} · age ${Math.round(s.age_s)} s`,
    `probe: ${probeUrl}`,
  ].join('\n');
}
