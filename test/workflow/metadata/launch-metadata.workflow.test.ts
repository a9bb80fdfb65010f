import type { LaunchEvent } from '../../../domain/launch/launch-events';
import { createMintMetadataStore } from '../../../db/metadata/mint-metadata-store';
import { LAUNCH_METADATA_WORKFLOW, type LaunchMetadataInput } from '../../../workflows/metadata/launch-metadata-contract';
import { mintWorkflowId, type LifecycleState } from '../../../workflows/mint/mint-lifecycle-contract';
import { startMetadataServer } from '../../fakes/metadata-server';
import { issueTestKey } from '../../support/access-keys';
import { launchNow, quickTiming } from '../../support/lifecycle-launch';
import { testIngestPipeline } from '../../support/test-ingest-pipeline';
import { keyedApi } from '../../support/typed-api';
import { uniqueId, useWorker, type StartedWorker } from '../../support/worker-harness';
import type { StartedApi } from '../../support/api-harness';
import type { createTestDatabase } from '../../support/test-db';

/**
 * Launch metadata end to end: mints arrive through the ingest pipeline, their lifecycles score them on the real
 * Temporal server, the metadata fetcher workflow fetches each URI with the production client from the local
 * metadata server (as the IPFS gateway), and the probe answers `has_socials` / `metadata_ok` over HTTP, validated
 * against openapi.yaml. No private-address allowance: the gateway is trusted as configured, and a URI naming a
 * loopback host itself is refused by the guard.
 */
let srv: Awaited<ReturnType<typeof startMetadataServer>>;
let t: Awaited<ReturnType<typeof createTestDatabase>>;
let w: StartedWorker;
let api: StartedApi;
const TIMEOUT_MS = 6000;

beforeAll(async () => {
  srv = await startMetadataServer();
});
useWorker(
  {
    worker: {
      env: {
        get METADATA_IPFS_GATEWAY() {
          return srv.url;
        },
        METADATA_TIMEOUT_MS: String(TIMEOUT_MS),
        METADATA_MAX_ATTEMPTS: '1',
      } as Record<string, string>,
    },
    api: {},
  },
  (bed) => ({ t, w, api } = bed),
);
afterAll(() => srv?.close());

const key = { current: undefined as { plaintext: string } | undefined };
const http = keyedApi(
  () => api.url,
  () => key.current,
);

const until = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await ok()) return;
  throw new Error(`timed out waiting for ${what}`);
};

async function probeQuality(mint: string) {
  const r = await http.GET('/api/v1/probe/{mint}', { params: { path: { mint } } });
  expect(r.response.status).toBe(200);
  return r.data!.signals.quality;
}

it('fills has_socials and metadata_ok on new mints, records broken and refused URIs, and never delays a score', async () => {
  key.current = await issueTestKey(t.db, 'pro');
  const pipeline = testIngestPipeline(t.db, w, quickTiming(4));
  const launch = (uri: string, name = 'Test', symbol = 'TST') => {
    const l = launchNow();
    l.create.uri = uri;
    l.create.name = name;
    l.create.symbol = symbol;
    return l;
  };
  srv.put('bafysocial', { name: 'Test', symbol: 'TST', image: 'ipfs://bafyimg', twitter: 'https://x.com/test' });
  srv.put('bafyplain', { name: 'Test', symbol: 'TST', image: 'https://img.example/t.png' });
  const social = launch('ipfs://bafysocial');
  const plain = launch('ipfs://bafyplain');
  const missing = launch('ipfs://bafymissing');
  const loopback = launch(`${srv.url}/ipfs/bafysocial`);
  const slow = launch('ipfs://slowhost');
  const all = [social, plain, missing, loopback, slow];
  const events: LaunchEvent[] = all.flatMap((l) => [l.create, l.buy(200, 400_000_000)]);

  // Before the fetcher has run, both are null: not fetched yet.
  await pipeline.handle(events);
  expect(await probeQuality(social.mint)).toMatchObject({ has_socials: null, metadata_ok: null });

  const workflowId = uniqueId('launch-metadata');
  const input: LaunchMetadataInput = { everyMs: 200, iterationsPerRun: 50 };
  await w.client.workflow.start(LAUNCH_METADATA_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
  try {
    const store = createMintMetadataStore(t.db);
    await until('the fast URIs to settle', async () => {
      const rows = await Promise.all([social, plain, missing, loopback].map((l) => store.get(l.mint)));
      return rows.every((r) => r?.final);
    });
    // The slow host is still being waited on, while the lifecycle has already logged its scores on time.
    expect(await store.get(slow.mint)).toBeNull();
    const scored: LifecycleState = await w.client.workflow.getHandle(mintWorkflowId(slow.mint)).result();
    expect(scored.scores.map((s) => s.status)).toEqual(['scored', 'scored']);

    expect(await probeQuality(social.mint)).toMatchObject({ has_socials: true, metadata_ok: true });
    expect(await probeQuality(plain.mint)).toMatchObject({ has_socials: false, metadata_ok: true });
    expect(await probeQuality(missing.mint)).toMatchObject({ has_socials: null, metadata_ok: false });
    expect(await store.get(missing.mint)).toMatchObject({ outcome: 'http_error', reason: 'HTTP 404', attempts: 1 });
    expect(await probeQuality(loopback.mint)).toMatchObject({ has_socials: null, metadata_ok: false });
    expect(await store.get(loopback.mint)).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^refused: 127\.0\.0\.1/) });
    expect(srv.hits('/ipfs/bafysocial')).toBe(1); // the loopback URI never reached the server

    await until('the slow URI to time out', async () => (await store.get(slow.mint))?.final === true, TIMEOUT_MS + 15_000);
    const timedOut = await store.get(slow.mint);
    expect(timedOut).toMatchObject({ outcome: 'timeout', attempts: 1 });
    // Both scores were logged while the slow host was still being waited on.
    const predictions = await t.db('predictions').where({ mint: slow.mint }).orderBy('age_bucket');
    expect(predictions.map((p) => p.age_bucket)).toEqual([30, 60]);
    for (const p of predictions) expect(new Date(p.predicted_at).getTime()).toBeLessThan(timedOut!.fetchedAt.getTime());
    expect(await probeQuality(slow.mint)).toMatchObject({ has_socials: null, metadata_ok: false });
  } finally {
    await w.client.workflow.getHandle(workflowId).terminate('test done');
  }
}, 90_000);

it('continues as new under the same id instead of growing, its first run recorded for the replay tests', async () => {
  const workflowId = uniqueId('launch-metadata');
  const input: LaunchMetadataInput = { everyMs: 100, iterationsPerRun: 3 };
  const handle = await w.client.workflow.start(LAUNCH_METADATA_WORKFLOW, { taskQueue: w.taskQueue, workflowId, args: [input] });
  try {
    await until('a continued run', async () => (await w.client.workflow.getHandle(workflowId).describe()).runId !== handle.firstExecutionRunId);
    expect((await w.client.workflow.getHandle(workflowId, handle.firstExecutionRunId).describe()).status.name).toBe('CONTINUED_AS_NEW');
    await w.maybeRecordHistory(workflowId, 'launch-metadata-continued-as-new', handle.firstExecutionRunId);
  } finally {
    await w.client.workflow.getHandle(workflowId).terminate('test done');
  }
});
