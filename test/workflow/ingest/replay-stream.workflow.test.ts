import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { createIngestPipeline } from '../../../ingest/pipeline/ingest-pipeline';
import { createMintLifecycleStarter } from '../../../workflows/mint/mint-lifecycle-starter';
import { formatReplayLine } from '../../../ingest/replay/replay-format';
import { ReplayFeed } from '../../../ingest/replay/replay-feed';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createLogger } from '../../../platform/logger';
import { mintWorkflowId, type LifecycleState, type LifecycleTiming } from '../../../workflows/mint/mint-lifecycle-contract';
import { createTestDatabase } from '../../support/test-db';
import { startWorker, useWorker } from '../../support/worker-harness';

/** Scores at 1 s and 2 s (buckets 30 and 60), resolution at 4 s. */
const TIMING: LifecycleTiming = {
  scores: [
    { bucket: 30, afterS: 1 },
    { bucket: 60, afterS: 2 },
  ],
  maxLatenessS: 60,
  resolveAfterS: 4,
  checkpointsS: [1],
  checkpointRetry: { initialIntervalS: 0.1, maximumAttempts: 1 },
};

let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: Awaited<ReturnType<typeof startWorker>>;
useWorker({}, (bed) => ({ t, w } = bed));

describe('a replayed stream → exactly the expected predictions', () => {
  it('scores every non-mayhem mint at 30 s and 60 s once each, mayhem mints never, duplicates ignored', async () => {
    // A recorded stream in the documented replay format, every line written twice (as if from two feeds).
    const start = Date.UTC(2026, 6, 4, 12);
    const events = [...createMarketSimulator({ seed: 99, launchesPerSecond: 3, mayhemShare: 0.3 }).events(start, start + 4000)];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'replay-')), 'stream.jsonl');
    fs.writeFileSync(
      file,
      events
        .map((e) => formatReplayLine(e.at.getTime() - start, e) + '\n')
        .flatMap((l) => [l, l])
        .join(''),
    );

    const creates = events.filter((e) => e.kind === 'create');
    const scored = creates.filter((e) => !e.mayhem).map((e) => e.mint);
    const mayhem = creates.filter((e) => e.mayhem).map((e) => e.mint);
    expect(scored.length).toBeGreaterThan(3);
    expect(mayhem.length).toBeGreaterThan(0);

    const pipeline = createIngestPipeline({
      store: createLaunchEventStore(t.db),
      starter: createMintLifecycleStarter(w.client, w.taskQueue, TIMING),
      log: createLogger('silent', 'replay-test'),
      now: () => new Date(),
    });
    const feed = new ReplayFeed({ filePath: file, logger: createLogger('silent', 'replay-test'), speed: 0 });
    feed.start((batch) => pipeline.handle(batch));
    await feed.done();
    expect(feed.stats()).toMatchObject({ framesReceived: events.length * 2, badFrames: 0 });

    const states = await Promise.all(scored.map((m) => w.client.workflow.getHandle(mintWorkflowId(m)).result() as Promise<LifecycleState>));
    for (const s of states)
      expect(s.scores.map((x) => [x.bucket, x.status])).toEqual([
        [30, 'scored'],
        [60, 'scored'],
      ]);
    for (const m of mayhem) await expect(w.client.workflow.getHandle(mintWorkflowId(m)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const rows = (await t.db('predictions').select('mint', 'age_bucket').orderBy(['mint', 'age_bucket'])) as { mint: string; age_bucket: number }[];
    const expected = scored.flatMap((m) => [`${m}:30`, `${m}:60`]).sort();
    expect(rows.map((r) => `${r.mint}:${r.age_bucket}`).sort()).toEqual(expected);
    expect(Number((await t.db('trades').count('* as n'))[0]!.n)).toBe(events.filter((e) => e.kind === 'trade').length);
  });
});
