// Bound once: global lookups are slow under jest's vm sandbox (see seeded-random.ts).
const { exp, log, max, min } = Math;
const isFiniteNumber = Number.isFinite;

/**
 * A mint's organic trade rate as consecutive phases, each with a rate that grows or decays exponentially:
 * r(t) = rate0 * exp(growth * (t - start)). Arrivals are drawn from the non-homogeneous Poisson process in
 * closed form (integrate the rate, invert), so a decaying phase can run out of trades on its own: that is
 * how a dud dies, with a finite, random number of trades rather than a hard cut.
 */
export type IntensityPhase = {
  startS: number;
  /** Trades per second at `startS`. */
  rate0: number;
  /** Per second; > 0 accelerates (winners), < 0 decays (duds, after a peak or a rug). */
  growth: number;
  /** Upper bound on a growing rate (a busy curve trades a few times a second, not hundreds). */
  maxRate?: number;
};

export function rateAt(phases: readonly IntensityPhase[], tS: number): number {
  const i = phaseIndex(phases, tS);
  if (i < 0) return 0;
  const p = phases[i]!;
  const r = p.rate0 * exp(p.growth * (tS - p.startS));
  return p.growth > 0 ? min(p.maxRate ?? Infinity, r) : r;
}

/**
 * Time of the next arrival after `tS`, given `budget`, a standard exponential draw (the integrated rate to
 * consume). Null when the remaining phases cannot consume it: no more organic trades.
 */
export function nextArrivalS(phases: readonly IntensityPhase[], tS: number, budget: number): number | null {
  let t = tS;
  let left = budget;
  for (let i = max(0, phaseIndex(phases, tS)); i < phases.length; i++) {
    const p = phases[i]!;
    const end = phases[i + 1]?.startS ?? Infinity;
    if (t < p.startS) t = p.startS;
    const r = rateAt(phases, t);
    const dt = solveSegment(r, p.growth, p.maxRate ?? Infinity, left);
    if (isFiniteNumber(dt) && t + dt <= end) return t + dt;
    left -= integrate(r, p.growth, p.maxRate ?? Infinity, end - t);
    t = end;
  }
  return null;
}

function phaseIndex(phases: readonly IntensityPhase[], tS: number): number {
  let i = -1;
  for (let j = 0; j < phases.length && phases[j]!.startS <= tS; j++) i = j;
  return i;
}

/** Integrated rate over [0, dt] for r(x) = min(cap, r0 e^{g x}). */
function integrate(r0: number, g: number, cap: number, dt: number): number {
  if (r0 <= 0 || dt <= 0) return 0;
  if (g === 0) return r0 * dt;
  if (g > 0 && r0 >= cap) return cap * dt;
  if (g < 0) return (r0 / g) * (exp(g * dt) - 1);
  const tCap = log(cap / r0) / g;
  if (dt <= tCap) return (r0 / g) * (exp(g * dt) - 1);
  return (r0 / g) * (exp(g * tCap) - 1) + cap * (dt - tCap);
}

/** Smallest dt with integrate(r0, g, cap, dt) = budget (Infinity when the phase never gets there). */
function solveSegment(r0: number, g: number, cap: number, budget: number): number {
  if (r0 <= 0) return Infinity;
  if (g === 0) return budget / r0;
  if (g > 0 && r0 >= cap) return budget / cap;
  if (g < 0) {
    const x = 1 + (g * budget) / r0;
    return x <= 0 ? Infinity : log(x) / g;
  }
  const tCap = log(cap / r0) / g;
  const beforeCap = (r0 / g) * (exp(g * tCap) - 1);
  if (budget <= beforeCap) return log(1 + (g * budget) / r0) / g;
  return tCap + (budget - beforeCap) / cap;
}
