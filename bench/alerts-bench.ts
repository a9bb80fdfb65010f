import os from 'node:os';
import { createLiveTick } from '../activities';
import { createAlertEvaluator, type AlertEvaluation } from '../activities/alerts/alert-evaluator';
import { createBotSender } from '../activities/alerts/bot-sender';
import { createTelegramBot } from '../clients/telegram/telegram-bot';
import { createApiKeyStore } from '../db/access/api-key-store';
import { createAlertFireStore } from '../db/alerts/alert-fire-store';
import { createAlertRuleStore } from '../db/alerts/alert-rule-store';
import { createBotChatStore } from '../db/alerts/bot-chat-store';
import { createBotSendStore } from '../db/alerts/bot-send-store';
import { createWatchlistStore } from '../db/alerts/watchlist-store';
import { createPriceStore } from '../db/market/price-store';
import { createLaunchEventStore } from '../db/mint/launch-event-store';
import { createPredictionStore } from '../db/mint/prediction-store';
import { seedSimulatedSmartWallets } from '../db/wallets/simulated-wallet-seed';
import { WSOL_MINT } from '../domain/market/native-coin';
import type { LaunchEvent } from '../domain/launch/launch-events';
import { createMarketSimulator } from '../ingest/simulator/market-simulator';
import { hashSeed, SeededRandom } from '../ingest/simulator/seeded-random';
import { simulatedSmartWallets } from '../ingest/simulator/simulated-smart-wallets';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { startTelegramBotApiServer } from '../test/fakes/telegram-bot-api-server';
import { freshBenchDatabase } from './lib/bench-db';
import { machineLine } from './lib/load';

/**
 * `npm run bench:alerts [-- seconds]` (default 120): 10,000 users (API keys, each with a linked chat), 50,000 rules
 * (20,000 of them `wallet` rules watching 20,000 distinct wallets, some of which trade), against a simulated
 * market at 4 launches/s in real time. The live projector's refresh every 2 s evaluates the rules (the production
 * hook); scores are logged at 30 s and 60 s. The bot's sender drains to the local Telegram Bot API server with
 * Telegram's pacing lifted (what the code adds, not what Telegram allows; the fire rate says whether 30/s would throttle).
 * Prints: evaluation cost per refresh (p50/p99), fires, fire-to-send lateness p50/p99, heap and RSS.
 */
const DURATION_S = Number(process.argv[2] ?? 120);
// Scale knobs for a loaded machine (the figures name what ran): users, rules in all, wallet rules among them.
const USERS = Number(process.env.ALERTS_BENCH_USERS ?? 10_000);
const RULES = Number(process.env.ALERTS_BENCH_RULES ?? 50_000);
const WALLET_RULES = Number(process.env.ALERTS_BENCH_WALLET_RULES ?? 20_000);
const SEED = 33;
const TOKEN = '777:bench-token-abcdefghijklmnopqrstu';
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));
const mb = (b: number) => Math.round(b / 2 ** 20);

async function main() {
  const bench = await freshBenchDatabase('launchpad_bench_alerts');
  const { db } = bench;
  const start = Date.now();
  const cfg = loadConfig({});
  const rng = new SeededRandom(SEED);
  const events: LaunchEvent[] = [...createMarketSimulator({ seed: SEED, launchesPerSecond: 4 }).events(start, start + DURATION_S * 1000)];
  const traders = [...new Set(events.flatMap((e) => (e.kind === 'trade' && e.isBuy ? [e.trader] : [])))];
  await seedSimulatedSmartWallets(db, simulatedSmartWallets(SEED), new Date(start));
  await createPriceStore(db).recordQuote({ symbol: 'SOL', mint: WSOL_MINT, usd: 150, source: 'jupiter-price-v3', fetchedAt: new Date(start) });

  // Users, chats and rules (written directly in bulk: seeding, not what is measured).
  const keys = createApiKeyStore(db);
  const ids: number[] = [];
  for (let i = 0; i < USERS; i += 100)
    ids.push(
      ...(
        await Promise.all(
          Array.from({ length: Math.min(100, USERS - i) }, (_, k) =>
            keys.issueKey({ tier: (i + k) % 10 === 0 ? 'free' : 'pro', planExpiresAt: null, source: 'admin' }),
          ),
        )
      ).map((k) => k.id),
    );
  const chats = createBotChatStore(db);
  for (let i = 0; i < USERS; i += 500) await Promise.all(ids.slice(i, i + 500).map((id, k) => chats.link(1_000_000 + i + k, id, new Date(start))));
  const rows: Record<string, unknown>[] = [];
  const kinds = ['grad_prob', 'vsol_burst', 'runner_dev', 'smart_in', 'runner_5x', 'runner_10x'] as const;
  for (let r = 0; r < RULES; r++) {
    const owner = ids[r % USERS]!;
    if (r < WALLET_RULES) {
      // Half watch wallets that trade in this market, half wallets that never appear.
      const wallet = r % 2 === 0 ? traders[r % traders.length]! : `W${String(r).padStart(40, 'x')}`;
      rows.push({ owner_key_id: owner, kind: 'wallet', threshold: 0, wallet, version: 'alerts-v1', created_at: new Date(start) });
      continue;
    }
    const kind = kinds[r % kinds.length]!;
    const threshold = kind === 'vsol_burst' ? rng.uniform(5, 60) : kind === 'smart_in' ? 1 + (r % 5) : rng.uniform(0.3, 0.99);
    rows.push({ owner_key_id: owner, kind, threshold, wallet: null, version: 'alerts-v1', created_at: new Date(start) });
  }
  for (let i = 0; i < rows.length; i += 2000) await db('alert_rules').insert(rows.slice(i, i + 2000));
  await db.raw('INSERT INTO alert_rules_version (id, changed_at) VALUES (1, now())');

  const fake = await startTelegramBotApiServer(TOKEN);
  for (let c = 0; c < USERS; c++) fake.startChat(1_000_000 + c);
  const evaluations: (AlertEvaluation & { ms: number })[] = [];
  const evaluator = createAlertEvaluator({
    ruleStore: createAlertRuleStore(db, { holderThresholds: cfg.access.holder.thresholds }),
    fireStore: createAlertFireStore(db),
    watchStore: createWatchlistStore(db, { holderThresholds: cfg.access.holder.thresholds }),
    windowS: cfg.live.windowS,
    rulesMaxAgeMs: cfg.alerts.rulesMaxAgeMs,
    maxFiresPerRefresh: cfg.alerts.maxFiresPerRefresh,
    probeUrl: (m) => `/api/v1/probe/${m}`,
  });
  const timed = {
    ...evaluator,
    evaluate: async (now: Date, entries: Parameters<typeof evaluator.evaluate>[1]) => {
      const t0 = performance.now();
      const r = await evaluator.evaluate(now, entries);
      evaluations.push({ ...r, ms: performance.now() - t0 });
      return r;
    },
  };
  const projector = createLiveTick({ cfg, db, log: createLogger('silent', 'bench'), now: () => new Date() }, { alerts: { alertEvaluator: timed } });
  const sender = createBotSender({
    sendStore: createBotSendStore(db),
    chatStore: chats,
    bot: createTelegramBot({ token: TOKEN, apiRoot: fake.apiRoot }),
    pacing: { perChatIntervalMs: 0, perSecond: 10_000 },
    now: () => new Date(),
  });
  const store = createLaunchEventStore(db);
  const predictions = createPredictionStore(db);
  const created = new Map<string, number>();
  const scored = new Set<string>();
  let running = true;
  const writer = async () => {
    let next = 0;
    while (running && next < events.length) {
      const now = Date.now();
      const due: LaunchEvent[] = [];
      while (next < events.length && events[next]!.at.getTime() <= now) due.push(events[next++]!);
      if (due.length) await store.writeBatch(due);
      for (const e of due) if (e.kind === 'create' && !e.mayhem) created.set(e.mint, e.at.getTime());
      for (const [mint, at] of created)
        for (const bucket of [30, 60]) {
          if (scored.has(`${mint}:${bucket}`) || now - at < bucket * 1000) continue;
          scored.add(`${mint}:${bucket}`);
          const h = hashSeed(SEED, mint);
          const gp = [0.9, 0.6, 0.3, 0.05][h % 4]! * (bucket === 30 ? 0.8 : 1);
          await predictions.insertOnce({
            ...{
              mint,
              ageBucket: bucket,
              asOf: new Date(at + bucket * 1000),
              predictedAt: new Date(),
              gradProb: gp,
              rawProb: gp,
              modelVersion: 'bench',
              features: {},
            },
            ...{
              calibration: {},
              priceSol: 3e-8,
              rugProb: null,
              runnerOdds: { '2x': 0.5, '3x': 0.4, '5x': gp / 2, '10x': gp / 4, '20x': 0.01 },
              survivalProb: null,
            },
            ...{ modelVersions: {}, rugFeatures: {}, context: {} },
          });
        }
      await sleep(100);
    }
  };
  // The same run's reference: the whole live refresh, of which the evaluation is a part.
  const refreshMs: number[] = [];
  const refresher = async () => {
    while (running) {
      const t0 = Date.now();
      await projector.refreshLiveSnapshot();
      refreshMs.push(Date.now() - t0);
      await sleep(2000 - (Date.now() - t0));
    }
  };
  const drainer = async () => {
    while (running) await sender.drainBotSends({ maxMs: 2000 });
  };
  const heapBefore = process.memoryUsage();
  const loadStart = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const loops = [writer(), refresher(), drainer()];
  await sleep(DURATION_S * 1000);
  running = false;
  await Promise.all(loops);
  await sender.drainBotSends({ maxMs: 5000 });
  const mem = process.memoryUsage();

  const sends = await db('bot_sends').whereNotNull('sent_at').select(db.raw('extract(epoch FROM sent_at - created_at) * 1000 AS ms'));
  const late = sends.map((r) => Number(r.ms));
  const fires = evaluations.reduce((n, e) => n + e.fired, 0);
  const warm = evaluations.slice(2);
  console.log(`alerts bench: ${DURATION_S} s at 4 launches/s; ${USERS} users, ${RULES} rules (${WALLET_RULES} wallet rules)`);
  console.log(
    `evaluation per refresh (every 2 s): p50 ${pct(
      warm.map((e) => e.ms),
      50,
    ).toFixed(1)} ms, p99 ${pct(
      warm.map((e) => e.ms),
      99,
    ).toFixed(1)} ms, max ${Math.max(...warm.map((e) => e.ms)).toFixed(1)} ms over ${warm.length} refreshes; mints per refresh p50 ${pct(
      warm.map((e) => e.mints),
      50,
    )}`,
  );
  const warmRefresh = refreshMs.slice(2);
  console.log(`whole live refresh (same run, evaluation included): p50 ${pct(warmRefresh, 50)} ms, p99 ${pct(warmRefresh, 99)} ms`);
  const deferred = evaluations.filter((e) => e.deferredMints > 0).length;
  console.log(`refreshes that hit the fire cap (${cfg.alerts.maxFiresPerRefresh}) and left mints for the next: ${deferred} of ${evaluations.length}`);
  console.log(`fires: ${fires} (${(fires / DURATION_S).toFixed(1)}/s), messages sent ${late.length}, pending ${await createBotSendStore(db).pendingCount()}`);
  console.log(`fire-to-send lateness (Telegram pacing lifted): p50 ${pct(late, 50).toFixed(0)} ms, p99 ${pct(late, 99).toFixed(0)} ms`);
  console.log(`memory: heap ${mb(heapBefore.heapUsed)} → ${mb(mem.heapUsed)} MiB, rss ${mb(mem.rss)} MiB`);
  console.log(
    `machine: ${machineLine()}; load average at start ${loadStart}, at end ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await fake.close();
  await db.destroy();
  await bench.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
