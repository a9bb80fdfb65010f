import { syntheticHistoryPlan, type SyntheticHistoryInput } from '../../../domain/history/synthetic-history-plan';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const base: SyntheticHistoryInput = {
  nodeEnv: 'development',
  feeds: ['simulator'],
  launches: 6000,
  seed: 42,
  launchesPerS: 0.3,
  graduationShare: 0.05,
  horizonS: 86_400,
  nowMs: NOW,
};

describe('seeded history plan', () => {
  it('covers the requested launches at the simulator rate and closes a horizon before now, so every label is final', () => {
    const p = syntheticHistoryPlan(base)!;
    expect(p.toMs).toBe(NOW - 86_400_000 - 60_000);
    expect(p.toMs - p.fromMs).toBe(20_000_000);
    expect(p).toMatchObject({ seed: 42, launchesPerS: 0.3, graduationShare: 0.05, horizonS: 86_400 });
  });

  it('names the run by its content, not by the time of the start, so a restart finds it done', () => {
    expect(syntheticHistoryPlan({ ...base, nowMs: NOW + 3_600_000 })!.runId).toBe(syntheticHistoryPlan(base)!.runId);
    expect(syntheticHistoryPlan({ ...base, seed: 7 })!.runId).not.toBe(syntheticHistoryPlan(base)!.runId);
    expect(syntheticHistoryPlan({ ...base, graduationShare: 0.1 })!.runId).not.toBe(syntheticHistoryPlan(base)!.runId);
  });

  it('never seeds production, a real feed beside the simulator, or when turned off', () => {
    expect(syntheticHistoryPlan({ ...base, nodeEnv: 'production' })).toBeNull();
    for (const feeds of [['solana-logs'], ['pumpportal'], ['replay'], ['simulator', 'solana-logs'], []])
      expect(syntheticHistoryPlan({ ...base, feeds })).toBeNull();
    expect(syntheticHistoryPlan({ ...base, launches: 0 })).toBeNull();
  });
});
