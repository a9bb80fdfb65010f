import type { SeededRandom } from './seeded-random';
import type { IntensityPhase } from './trade-intensity';

// Bound once: global lookups are slow under jest's vm sandbox (see seeded-random.ts).
const { exp, log, max, min, pow } = Math;

/**
 * What a launch will become, drawn once at creation from its creator's kind: its fate, how busy it is over
 * time (intensity phases) and where buyers push its virtual SOL (a target path the organic flow tracks with
 * noise). Figures are medians of log-normal draws, chosen to match public facts (domain notes: graduates
 * take minutes and hundreds of trades; most launches see a handful of trades) and the recorded PumpPortal
 * session (dev buy: 15% none, median 0.12 SOL, p90 ~5 SOL; serial creators launching every few minutes).
 */
export type CreatorKind = 'runner' | 'rugger' | 'normal';
export type LaunchFate = 'winner' | 'near-miss' | 'rug' | 'dud';

export type SniperPlan = { delayS: number; sol: number; holdS: number };

export type LaunchProfile = {
  fate: LaunchFate;
  phases: IntensityPhase[];
  /** Virtual SOL (in SOL) the organic flow leans towards at a given age. */
  targetSol: (ageS: number) => number;
  /** Median organic buy in SOL (grows with the distance to the target). */
  sizeScaleSol: number;
  devBuySol: number;
  bundleBuysSol: number[];
  snipers: SniperPlan[];
  /** Age at which the creator and bundle wallets dump everything. */
  rugAtS: number | null;
  /** Chance that an organic buyer is one of the smart wallets, early in the mint's life. */
  smartBuyerShareEarly: number;
};

/** Graduation probability of a launch per creator kind, solved so the market-wide share is `graduationShare`. */
export function winnerOdds(graduationShare: number, runnerLaunchShare: number, ruggerLaunchShare: number): Record<CreatorKind, number> {
  const runner = min(0.6, 20 * graduationShare);
  const rugger = 0.1 * graduationShare;
  const normalShare = max(1e-9, 1 - runnerLaunchShare - ruggerLaunchShare);
  const normal = (graduationShare - runnerLaunchShare * runner - ruggerLaunchShare * rugger) / normalShare;
  return { runner, rugger, normal: clamp(normal, 0, 1) };
}

const RUG_ODDS: Record<CreatorKind, number> = { runner: 0.03, rugger: 0.85, normal: 0.12 };
const BUNDLE_ODDS: Record<CreatorKind, number> = { runner: 0.1, rugger: 0.7, normal: 0.08 };
const NEAR_MISS_ODDS = 0.03;
const MAX_RATE = 8;

export function drawLaunchProfile(rng: SeededRandom, kind: CreatorKind, pWinner: number): LaunchProfile {
  const fate: LaunchFate = rng.chance(pWinner)
    ? 'winner'
    : rng.chance(RUG_ODDS[kind])
      ? 'rug'
      : rng.chance(NEAR_MISS_ODDS / (1 - RUG_ODDS[kind]))
        ? 'near-miss'
        : 'dud';
  const shape = fate === 'winner' ? winner(rng) : fate === 'near-miss' ? nearMiss(rng) : fate === 'rug' ? rug(rng) : dud(rng);
  const devBuySol = kind === 'rugger' ? clamp(rng.lognormal(1.5, 0.8), 0.05, 15) : rng.chance(0.15) ? 0 : clamp(rng.lognormal(0.3, 1.5), 0.01, 12);
  const bundleBuysSol: number[] = [];
  if (rng.chance(BUNDLE_ODDS[kind])) {
    const n = min(12, 2 + rng.poisson(3));
    for (let i = 0; i < n; i++) bundleBuysSol.push(clamp(rng.lognormal(0.8, 0.6), 0.05, 8));
  }
  const snipers: SniperPlan[] = [];
  for (let i = rng.poisson(1.6); i > 0; i--) {
    snipers.push({ delayS: rng.uniform(0.4, 2.5), sol: clamp(rng.lognormal(0.6, 0.6), 0.05, 5), holdS: clamp(rng.lognormal(25, 0.8), 2, 900) });
  }
  return {
    fate,
    ...shape,
    sizeScaleSol: rng.lognormal(0.3, 0.4),
    devBuySol,
    bundleBuysSol,
    snipers,
    smartBuyerShareEarly: fate === 'winner' ? 0.12 : 0.02,
  };
}

type Shape = Pick<LaunchProfile, 'phases' | 'targetSol' | 'rugAtS'>;

/** Accelerating trade rate and a rising target that reaches the graduation vSol around `tGrad`. */
function winner(rng: SeededRandom): Shape {
  const tGrad = clamp(rng.lognormal(420, 1.1), 45, 12 * 3600);
  const trades = clamp(rng.lognormal(450, 0.5), 150, 3000);
  const m = rng.uniform(3, 10);
  const growth = log(m) / tGrad;
  // A floor of one trade a minute: slow graduates still trade, so the inactivity rule never kills them.
  const rate0 = max((trades * growth) / (m - 1), 1 / 60);
  const gamma = rng.uniform(0.5, 1.5);
  return {
    phases: [
      { startS: 0, rate0, growth, maxRate: MAX_RATE },
      { startS: tGrad, rate0: min(MAX_RATE, rate0 * m), growth: 0 },
    ],
    targetSol: (t) => (t >= tGrad ? 125 : 30 + 90 * pow(t / tGrad, gamma)),
    rugAtS: null,
  };
}

/** Looks like a winner for a while, peaks short of graduation, then bleeds out. */
function nearMiss(rng: SeededRandom): Shape {
  const tPeak = clamp(rng.lognormal(150, 0.8), 20, 3600);
  const peak = rng.uniform(12, 60);
  const tau = rng.lognormal(180, 0.5);
  const rate0 = rng.lognormal(0.5, 0.5);
  const growth = log(2) / tPeak;
  return {
    phases: [
      { startS: 0, rate0, growth, maxRate: MAX_RATE },
      { startS: tPeak, rate0: min(MAX_RATE, rate0 * 2), growth: -1 / tau },
    ],
    targetSol: (t) => (t < tPeak ? 30 + (peak * t) / tPeak : 30 + peak * exp(-(t - tPeak) / tau)),
    rugAtS: null,
  };
}

/** Hyped by its bundle, then the creator and bundle wallets dump; activity collapses after. */
function rug(rng: SeededRandom): Shape {
  const rugAtS = clamp(rng.lognormal(45, 0.9), 3, 1800);
  const hype = clamp(rng.lognormal(8, 0.6), 1, 40);
  const rate0 = rng.lognormal(0.5, 0.6) * min(1, 90 / rugAtS);
  return {
    phases: [
      { startS: 0, rate0, growth: 0 },
      { startS: rugAtS, rate0, growth: -1 / 25 },
    ],
    targetSol: (t) => (t < rugAtS ? 30 + hype * min(1, t / 15) : 30.5),
    rugAtS,
  };
}

/** The common case: a few trades, a rate that decays from the start, sellers drifting it back to 30 SOL. */
function dud(rng: SeededRandom): Shape {
  const rate0 = clamp(rng.lognormal(0.2, 0.9), 0.01, 3);
  const tau = clamp(rng.lognormal(40, 0.7), 5, 900);
  const bump = rng.lognormal(3, 0.8);
  return {
    phases: [{ startS: 0, rate0, growth: -1 / tau }],
    targetSol: (t) => 30 + bump * exp(-t / tau),
    rugAtS: null,
  };
}

export const clamp = (x: number, lo: number, hi: number) => min(hi, max(lo, x));
