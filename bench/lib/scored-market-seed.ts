import { accuracyActivities } from '../../activities/accuracy';
import { createLiveTick } from '../../activities';
import { mintActivities } from '../../activities/mint';
import { createJupiterPriceClient } from '../../clients/jupiter-price-client';
import { createPriceStore } from '../../db/market/price-store';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createLiveStore, LIVE_SNAPSHOT } from '../../db/live/live-store';
import { WSOL_MINT } from '../../domain/market/native-coin';
import { GRAD_PROB_SHOWN_UNTIL_S } from '../../domain/live/enriched-mint';
import type { CreateEvent } from '../../domain/launch/launch-events';
import { SCORE_AGES } from '../../domain/scoring/score-age';
import { createMarketSimulator } from '../../ingest/simulator/market-simulator';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { createReadPorts } from '../../db/read-ports';
import type { KnexDb } from '../../db/knex-handle';

/**
 * The in-process wiring the benchmarks need (kept in this one file so the area-modules refactor has one place
 * to adapt): a busy simulated market written as ingestion writes it, every non-mayhem mint scored at each age
 * it has reached by the real scoring activity, one live snapshot built by the real projector, and the accuracy
 * page computed by its real activity.
 */
export async function seedScoredLiveList(
  db: KnexDb,
  o: { now: number; liveMaxEntries: number; seed?: number },
): Promise<{ tracked: number; listed: number; scored: number; predictions: number }> {
  // The list shows grad_prob until GRAD_PROB_SHOWN_UNTIL_S of age and hides about a third of launches (rug
  // flags): 10 launches/s created 30 s to 150 s ago leave more than 500 listed mints with a score.
  const launchesPerS = 10;
  const windowS = 300;
  const firstLaunchMs = o.now - (GRAD_PROB_SHOWN_UNTIL_S + 30) * 1000;
  const events = [...createMarketSimulator({ seed: o.seed ?? 5, launchesPerSecond: launchesPerS }).events(firstLaunchMs, o.now - 30_000)];
  const store = createLaunchEventStore(db);
  for (let i = 0; i < events.length; i += 5000) await store.writeBatch(events.slice(i, i + 5000));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 80, source: 'jupiter-price-v3', fetchedAt: new Date(o.now) });

  const at = () => new Date(o.now);
  // The mint and accuracy areas as the worker builds them, over this database and a frozen clock.
  const ctx = {
    cfg: loadConfig({
      MODEL_REFIT_EVERY_S: '3600',
      CORPUS_LIMIT: '20000',
      LIVE_WINDOW_S: String(windowS),
      LIVE_MAX_ENTRIES: String(o.liveMaxEntries),
      LIVE_REFRESH_MS: '2000',
    }),
    db,
    log: createLogger('silent', 'bench'),
    now: at,
  };
  const mintCtx = { ...ctx, readPorts: createReadPorts(db, ctx.cfg) };
  const mint = mintActivities.create(mintCtx, {
    dexPriceClient: createJupiterPriceClient('http://127.0.0.1:9/unreachable', { timeoutMs: 200 }),
    dexPriceSourceName: 'bench',
  });
  const creates = events.filter((e): e is CreateEvent => e.kind === 'create' && !e.mayhem);
  const due = creates.flatMap((c) => SCORE_AGES.filter((age) => c.at.getTime() + age * 1000 <= o.now).map((age) => ({ c, age })));
  let predictions = 0;
  for (let i = 0; i < due.length; i += 16) {
    await Promise.all(
      due.slice(i, i + 16).map(async ({ c, age }) => {
        await mint.scoreMint({ mint: c.mint, bucket: age, asOf: new Date(c.at.getTime() + age * 1000).toISOString() });
        predictions++;
      }),
    );
  }

  const { tracked } = await createLiveTick(ctx).refreshLiveSnapshot();
  await accuracyActivities.create(ctx).recomputeAccuracy();
  const snapshot = await createLiveStore(db).readSnapshot(LIVE_SNAPSHOT);
  const listed = snapshot ? (JSON.parse(snapshot.body) as { mints: { grad_prob: number | null }[] }).mints : [];
  return { tracked, listed: listed.length, scored: listed.filter((m) => m.grad_prob !== null).length, predictions };
}
