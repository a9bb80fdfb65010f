import fs from 'node:fs';
import path from 'node:path';
import { startOwnStack, type OwnStack } from '../../../scripts/lib/own-stack';
import { waitFor } from '../../../scripts/lib/run';
import { createDb } from '../../../platform/db';
import { issueTestKey } from '../../support/access-keys';
import { ROOT } from '../../support/test-env';
import { asDb, type KnexDb } from '../../../db/knex-handle';

/**
 * The real `npm start` as a new user runs it on a machine without internet access: nothing but loopback is
 * configured, so the launches, the perps exchange and the SOL/USD price are all the embedded simulators. Within
 * five minutes of the command it must publish a composite signal, USD market caps and a native-coin price, and say
 * that its inputs are simulated. Every outside address is pointed at a closed port, so a forgotten real source
 * fails here instead of quietly succeeding on a machine that happens to be online.
 */
const FIRST_SIGNAL_WITHIN_MS = 5 * 60_000;
const dataDir = path.join(ROOT, '.data', `offline-start-${process.pid}`);
const CLOSED = 'http://127.0.0.1:9/unreachable';
let stack: OwnStack | undefined;
let db: KnexDb | undefined;
let passed = false;

afterAll(async () => {
  if (stack && !passed) console.log(`${stack.supervisorLines().join('\n')}\n…\n${stack.output().slice(-6000)}`);
  await db?.destroy();
  await stack?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = async (p: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${stack!.apiUrl}${p}`, { headers, signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined };
};

it(
  'shows signals, USD market caps, a simulated SOL/USD price and launch metadata within five minutes, offline',
  async () => {
    const startedAt = Date.now();
    stack = await startOwnStack({
      dataDir,
      env: {
        LOG_LEVEL: 'warn',
        // Offline: every real outside service is unreachable; nothing names a price source.
        SOLANA_RPC_URL: CLOSED,
        HYPERLIQUID_API_URL: CLOSED,
        PRICE_SOURCE: '',
        PRICE_SOURCE_URL: '',
        METADATA_SOURCE: '',
        METADATA_IPFS_GATEWAY: '',
        INGEST_FEEDS: '',
      },
    });
    expect(stack.supervisorLines().join('\n')).toMatch(/price-source/);
    expect(stack.supervisorLines().join('\n')).toMatch(/metadata-source/);
    db = asDb(createDb(stack.pgUrl('launchpad'), 2));
    const key = await issueTestKey(db, 'builder');
    const left = () => Math.max(1, FIRST_SIGNAL_WITHIN_MS - (Date.now() - startedAt));

    await waitFor('a simulated SOL/USD price', async () => (await get('/api/native_coin_price')).body?.source === 'simulated-price', left());
    await waitFor(
      'a USD market cap on the live list',
      async () => ((await get('/api/live')).body?.mints as { market_cap_usd: number | null }[] | undefined)?.some((m) => m.market_cap_usd !== null) ?? false,
      left(),
    );
    // The simulated launches' metadata, fetched through the simulated gateway: some with links, some broken.
    type Quality = { has_socials: boolean | null; metadata_ok: boolean | null };
    await waitFor(
      'launch metadata on the live list',
      async () => {
        const q = (((await get('/api/live')).body?.mints as { signals: { quality: Quality } }[] | undefined) ?? []).map((m) => m.signals.quality);
        return q.some((x) => x.has_socials === true && x.metadata_ok === true) && q.some((x) => x.metadata_ok === false);
      },
      left(),
    );
    let signals: unknown[] = [];
    await waitFor(
      'the first composite signal',
      async () => {
        signals = ((await get('/api/v1/signals?since=0', key.bearer)).body?.signals as unknown[] | undefined) ?? [];
        return signals.length > 0;
      },
      left(),
    );
    expect(signals[0]).toMatchObject({ mint: expect.any(String), tier: expect.stringMatching(/^(ACT|WATCH|SCOUT)$/) });
    console.log(`offline npm start: first signal ${((Date.now() - startedAt) / 1000).toFixed(0)} s after the command`);
    passed = true;
  },
  7 * 60_000,
);
