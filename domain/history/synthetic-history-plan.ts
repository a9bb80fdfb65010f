/**
 * The embedded default's seeded history: a few simulated days generated before the simulator feed starts, so
 * the models are fitted and calibrated from the first minute instead of after 24 h of the deployment's own
 * resolutions. Synthetic data must never reach a model of the real market: only a deployment whose every feed
 * is the simulator, outside production (or in a DEMO_MODE one), ever gets a plan.
 */
export type SyntheticHistoryInput = {
  nodeEnv: 'development' | 'test' | 'production';
  /** DEMO_MODE: a production process that runs the simulator on purpose gets its history too. */
  demoMode?: boolean;
  feeds: readonly string[];
  /** Launches to generate; 0 turns the seeded history off. */
  launches: number;
  seed: number;
  launchesPerS: number;
  graduationShare: number;
  /** Label horizon (the lifecycle's resolveAfterS): every seeded mint is resolved by the time the feed starts. */
  horizonS: number;
  nowMs: number;
};

export type SyntheticHistoryPlan = {
  /** Names the run by what decides its content, so a restart finds it complete and never loads it twice. */
  runId: string;
  seed: number;
  launchesPerS: number;
  graduationShare: number;
  fromMs: number;
  toMs: number;
  horizonS: number;
};

/** Whether this deployment seeds a synthetic history at all (what /api/scope reports as `seeded.history`). */
export function seedsSyntheticHistory(i: Pick<SyntheticHistoryInput, 'nodeEnv' | 'demoMode' | 'feeds' | 'launches'>): boolean {
  if (i.launches <= 0 || (i.nodeEnv === 'production' && !i.demoMode)) return false;
  return i.feeds.length > 0 && i.feeds.every((f) => f === 'simulator');
}

export function syntheticHistoryPlan(i: SyntheticHistoryInput): SyntheticHistoryPlan | null {
  if (!seedsSyntheticHistory(i)) return null;
  const spanMs = Math.ceil((i.launches / i.launchesPerS) * 1000);
  // The window closes one horizon (and a minute) before now, so each seeded mint's label is final and dated in the past.
  const toMs = i.nowMs - i.horizonS * 1000 - 60_000;
  return {
    runId: `synthetic:seed=${i.seed}:launches=${i.launches}:rate=${i.launchesPerS}:grad=${i.graduationShare}`,
    seed: i.seed,
    launchesPerS: i.launchesPerS,
    graduationShare: i.graduationShare,
    fromMs: toMs - spanMs,
    toMs,
    horizonS: i.horizonS,
  };
}
