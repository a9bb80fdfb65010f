import { gateFire, gateInputsSha256, gateRunInputs, gateWindowStart, recomputeGateRun, type GateFireRow } from '../../../domain/accuracy/gate-validation-run';

const row = (mint: string, o: Partial<GateFireRow> = {}): GateFireRow => ({
  mint,
  crossed_at: '2026-12-10T00:00:00.000Z',
  entry_price_sol: 1e-7,
  graduated_at: '2026-12-10T00:10:00.000Z',
  survival_prob: 0.6,
  manufactured_pump: null,
  bundle_detected: false,
  graduation_price_sol: 1.5e-7,
  checkpoints: [
    { after_s: 300, price_sol: 1.2e-7 },
    { after_s: 1800, price_sol: 1.9e-7 },
  ],
  ...o,
});

describe('a gate-validation run from stored rows', () => {
  it('places checkpoints at their nominal time: the 30 min one counts, one past it does not', () => {
    expect(gateFire(row('A', { checkpoints: [{ after_s: 1800, price_sol: 2e-7 }] })).reached2x).toBe(true);
    expect(gateFire(row('A', { checkpoints: [{ after_s: 1801, price_sol: 2e-7 }] })).reached2x).toBeNull();
    expect(gateFire(row('A')).reached2x).toBe(false);
  });

  it('counts a graduation price at 2× even with no DEX price, and no price at all as unknown', () => {
    expect(gateFire(row('A', { graduation_price_sol: 2e-7, checkpoints: [] })).reached2x).toBe(true);
    expect(gateFire(row('A', { graduation_price_sol: null, checkpoints: [{ after_s: 300, price_sol: null }] })).reached2x).toBeNull();
  });

  it('hashes the same rows to the same digest in any order, and any changed figure to another', () => {
    const end = new Date('2026-12-10T01:00:00Z');
    const a = gateRunInputs(end, null, [row('B'), row('A', { checkpoints: [...row('A').checkpoints].reverse() })]);
    const b = gateRunInputs(end, null, [row('A'), row('B')]);
    expect(gateInputsSha256(a)).toBe(gateInputsSha256(b));
    expect(gateInputsSha256(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(gateInputsSha256(gateRunInputs(end, null, [row('A'), row('B', { survival_prob: 0.5 })]))).not.toBe(gateInputsSha256(b));
    expect(gateInputsSha256(gateRunInputs(end, { run_id: 1, decision: 'warming', hold_target_n: null }, [row('A'), row('B')]))).not.toBe(gateInputsSha256(b));
  });

  it('carries a hold from the previous run and starts the window at the earliest cross', () => {
    const fires = [
      ...Array.from({ length: 15 }, (_, i) => row(`H${i}`, { survival_prob: 0.9, checkpoints: [{ after_s: 900, price_sol: i < 3 ? 2e-7 : 1e-7 }] })),
      ...Array.from({ length: 15 }, (_, i) =>
        row(`L${i}`, { survival_prob: 0.1, crossed_at: '2026-12-09T23:00:00.000Z', checkpoints: [{ after_s: 900, price_sol: i < 1 ? 2e-7 : 1e-7 }] }),
      ),
    ];
    const end = new Date('2026-12-10T01:00:00Z');
    expect(recomputeGateRun(gateRunInputs(end, null, fires)).decision).toBe('validates');
    expect(recomputeGateRun(gateRunInputs(end, { run_id: 7, decision: 'hold', hold_target_n: 31 }, fires))).toMatchObject({
      decision: 'hold',
      holdTargetN: 31,
    });
    expect(gateWindowStart(gateRunInputs(end, null, fires))).toBe('2026-12-09T23:00:00.000Z');
    expect(gateWindowStart(gateRunInputs(end, null, []))).toBeNull();
  });
});
