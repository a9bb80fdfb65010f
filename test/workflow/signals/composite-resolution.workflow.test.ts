import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createOutcomeStore } from '../../../db/mint/outcome-store';
import { createSignalStore } from '../../../db/signals/signal-store';
import { priceSol, type CompleteEvent } from '../../../domain/launch/launch-events';
import { COMPOSITE_RESOLUTION_WORKFLOW, type CompositeResolutionResult } from '../../../workflows/signals/composite-resolution-contract';
import { insertTestCross, testDelivery, testMintAddress } from '../../support/composite-fixtures';
import { handBuiltMint } from '../../support/hand-built-mint';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, uniqueId, useWorker } from '../../support/worker-harness';

/**
 * The 24 h resolution of composite predictions, through the scheduled workflow on the real Temporal test server:
 * the peak is measured from the price at the cross (never from launch) and only up to the horizon; a graduation
 * after the horizon does not count; a graduation near the horizon waits for its 30 min checkpoint; a DEX price
 * source that was down leaves did_sustain_30m null; nothing resolves before its horizon, and nothing twice.
 */
const H = 3_600_000;
const DAY = 24 * H;
let clock = Date.now();
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;

useWorker({ worker: { now: () => new Date(clock) } }, (bed) => ({ t, w } = bed));

const resolveRun = async (record?: string): Promise<CompositeResolutionResult> => {
  const workflowId = uniqueId('composite-resolution');
  const r = await w.client.workflow.execute(COMPOSITE_RESOLUTION_WORKFLOW, { taskQueue: w.taskQueue, workflowId });
  if (record) await w.maybeRecordHistory(workflowId, record);
  return r as CompositeResolutionResult;
};

/** A mint launched `createdAgoMs` ago that crossed at 40 s of age; trades at the given ages (s) with the given SOL in. */
async function crossedMint(createdAgoMs: number, buys: [number, number][], o: { graduatedAfterCrossMs?: number } = {}) {
  const mint = testMintAddress();
  const createdMs = clock - createdAgoMs;
  const m = handBuiltMint({ mint, at: createdMs, creator: 'DEV' + mint.slice(0, 8) });
  let k = 0;
  let priceAtCross = m.create.vSolLamports / 1e9 / (m.create.vTokensRaw / 1e6);
  for (const [ageS, sol] of buys) {
    m.buy(ageS, `buyer-${mint.slice(0, 6)}-${k++}`, sol);
    const last = m.trades[m.trades.length - 1]!;
    if (ageS <= 40) priceAtCross = priceSol(last.vSolLamports, last.vTokensRaw);
  }
  const crossedAtMs = createdMs + 40_000;
  const events: Parameters<ReturnType<typeof createLaunchEventStore>['writeBatch']>[0] = [m.create, ...m.trades];
  if (o.graduatedAfterCrossMs !== undefined) {
    const complete: CompleteEvent = {
      kind: 'complete',
      signature: `complete-${mint}`,
      ordinal: 0,
      slot: null,
      at: new Date(crossedAtMs + o.graduatedAfterCrossMs),
      source: 'test',
      mint,
    };
    events.push(complete);
  }
  await createLaunchEventStore(t.db).writeBatch(events);
  const x = await insertTestCross(t.db, { mint, crossedAtMs, mintCreatedAtMs: createdMs, cross: { priceSol: priceAtCross } });
  await createSignalStore(t.db).deliver(testDelivery(x, 0.3, crossedAtMs + 25_000));
  const prices = m.trades.map((tr) => ({ ageS: (tr.at.getTime() - createdMs) / 1000, price: priceSol(tr.vSolLamports, tr.vTokensRaw) }));
  return { mint, crossedAtMs, priceAtCross, prices };
}

const row = (mint: string) => t.db('composite_predictions').where({ mint }).first();
const checkpoints = createOutcomeStore;

describe('composite prediction resolution (Schedule-run workflow)', () => {
  it('resolves 24 h after the cross: peak from the price at the cross up to the horizon, late graduation, price source down, a graduate waiting for its checkpoint', async () => {
    // 1. Not graduated: a pre-cross spike and a post-horizon spike do not count; the +1 h high does.
    const plain = await crossedMint(DAY + 2 * H, [
      [10, 3],
      [20, 30],
      [40, 1],
      [3_600, 12],
      [DAY / 1000 + 3_600, 40],
    ]);
    // 2. Graduated 30 min after the horizon: late, so not a graduation of this prediction.
    const late = await crossedMint(DAY + 2 * H, [[30, 2]], { graduatedAfterCrossMs: DAY + 30 * 60_000 });
    // 3. Graduated 1 h after the cross while the DEX price source was down: no checkpoint price, sustain unknown.
    const down = await crossedMint(DAY + 2 * H, [[30, 2]], { graduatedAfterCrossMs: H });
    const outcomes = checkpoints(t.db);
    for (const afterS of [300, 900, 1800]) {
      await outcomes.recordCheckpoint({
        mint: down.mint,
        afterS,
        observedAt: new Date(down.crossedAtMs + H + afterS * 1000),
        graduationPriceSol: null,
        priceSol: null,
        held80: null,
        source: 'jupiter-price-v3',
        error: 'connect ECONNREFUSED',
      });
    }
    // 4. Graduated 5 min before its horizon, which passed 10 min ago: its 30 min checkpoint is still to come.
    const nearHorizon = await crossedMint(DAY + 10 * 60_000 + 40_000, [[30, 2]], { graduatedAfterCrossMs: DAY - 5 * 60_000 });
    // 5. Crossed an hour ago: not due.
    const young = await crossedMint(H, [[30, 2]]);

    let r = await resolveRun('composite-resolution');
    expect(r).toEqual({ due: 4, resolved: 3, waiting: 1 });

    const p = await row(plain.mint);
    const high = plain.prices.find((x) => x.ageS === 3_600)!.price;
    expect(p).toMatchObject({ did_graduate: false, did_sustain_30m: null, label_version: 'v1' });
    expect(p.peak_mult_24h).toBeCloseTo(high / plain.priceAtCross, 9);
    expect(p.resolved_at).not.toBeNull();

    expect(await row(late.mint)).toMatchObject({ did_graduate: false, did_sustain_30m: null });
    const d = await row(down.mint);
    expect(d).toMatchObject({ did_graduate: true, did_sustain_30m: null });
    expect(d.peak_mult_24h).toBeCloseTo(1, 9); // no trade after the cross, no checkpoint price
    expect(await row(nearHorizon.mint)).toMatchObject({ resolved_at: null, did_graduate: null });
    expect(await row(young.mint)).toMatchObject({ resolved_at: null });

    // 30 min later its checkpoint has been taken (held 80%): it resolves as a sustained graduate.
    clock += 30 * 60_000;
    const gradAt = nearHorizon.crossedAtMs + DAY - 5 * 60_000;
    for (const afterS of [300, 900, 1800]) {
      await outcomes.recordCheckpoint({
        mint: nearHorizon.mint,
        afterS,
        observedAt: new Date(gradAt + afterS * 1000),
        graduationPriceSol: nearHorizon.priceAtCross,
        priceSol: nearHorizon.priceAtCross * (afterS === 300 ? 1.1 : 1.5),
        held80: true,
        source: 'jupiter-price-v3',
        error: null,
      });
    }
    r = await resolveRun();
    expect(r).toEqual({ due: 1, resolved: 1, waiting: 0 });
    const n = await row(nearHorizon.mint);
    expect(n).toMatchObject({ did_graduate: true, did_sustain_30m: true });
    // The 5 min checkpoint falls on the horizon and counts; the later ones are past it and do not raise the 24 h peak.
    expect(n.peak_mult_24h).toBeCloseTo(1.1, 9);

    // Resolved once: a further run finds nothing due and changes nothing.
    const before = await t.db('composite_predictions').whereNotNull('resolved_at').orderBy('id').select('id', 'resolved_at');
    expect(await resolveRun()).toEqual({ due: 0, resolved: 0, waiting: 0 });
    expect(await t.db('composite_predictions').whereNotNull('resolved_at').orderBy('id').select('id', 'resolved_at')).toEqual(before);
  }, 120_000);
});
