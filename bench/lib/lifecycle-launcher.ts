import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import bs58 from 'bs58';
import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { CURVE, type CreateEvent, type LaunchEvent, type TradeEvent } from '../../domain/launch/launch-events';
import { createMintLifecycleStarter } from '../../workflows/mint/mint-lifecycle-starter';
import { sleep } from '../../scripts/lib/run';
import type { LifecycleTiming } from '../../workflows/mint/mint-lifecycle-contract';
import type { KnexDb } from '../../db/knex-handle';

const address = () => bs58.encode(randomBytes(32));
/** Buys in the first seconds, so the scoring activity folds a small tape as it does for a real launch. */
const BUYS_AT_S = [4, 11, 19];
const BUY_LAMPORTS = 400_000_000;

/** A launch as a feed decodes it: the create and a few buys on the constant-product curve. */
function syntheticLaunch(at: Date): LaunchEvent[] {
  const mint = address();
  const create: CreateEvent = {
    kind: 'create',
    signature: address() + address(),
    ordinal: 0,
    slot: null,
    at,
    source: 'bench',
    mint,
    name: 'Bench',
    symbol: 'BNCH',
    uri: '',
    bondingCurve: address(),
    creator: address(),
    mayhem: false,
    vSolLamports: CURVE.initialVSolLamports,
    vTokensRaw: CURVE.initialVTokensRaw,
  };
  let vSol: number = CURVE.initialVSolLamports;
  let vTok: number = CURVE.initialVTokensRaw;
  const buys = BUYS_AT_S.map((s): TradeEvent => {
    const out = Math.floor(vTok - (vSol * vTok) / (vSol + BUY_LAMPORTS));
    vSol += BUY_LAMPORTS;
    vTok -= out;
    return {
      kind: 'trade',
      signature: address() + address(),
      ordinal: 0,
      slot: null,
      at: new Date(at.getTime() + s * 1000),
      source: 'bench',
      mint,
      trader: address(),
      isBuy: true,
      solLamports: BUY_LAMPORTS,
      tokensRaw: out,
      vSolLamports: vSol,
      vTokensRaw: vTok,
    };
  });
  return [create, ...buys];
}

export type Launched = { mint: string; createdAt: number };

/**
 * Launches `count` mints at `perS` a second as ingestion does: each 100 ms tick writes the launches now due in
 * one batch through the ingest store (created now), then starts their `mint:<address>` lifecycles through the
 * lifecycle starter ingestion uses. A tick that falls behind catches up with a bigger batch, so `perS` is an
 * upper bound on what the launcher reaches.
 */
export async function launchMints(o: {
  db: KnexDb;
  client: Client;
  taskQueue: string;
  timing: LifecycleTiming;
  count: number;
  perS: number;
  /** Launches dated this long ago (ingested late): past their scores' allowed lateness, lifecycles skip scoring. */
  createdAgoS?: number;
  onLaunched?: (n: number) => void;
}): Promise<Launched[]> {
  const store = createLaunchEventStore(o.db);
  const starter = createMintLifecycleStarter(o.client, o.taskQueue, o.timing);
  const launched: Launched[] = [];
  const t0 = Date.now();
  while (launched.length < o.count) {
    const due = Math.min(o.count, Math.floor(((Date.now() - t0) / 1000) * o.perS) + 1) - launched.length;
    if (due <= 0) {
      await sleep(20);
      continue;
    }
    // Bounded batches: a launcher far behind its schedule still writes and starts in modest steps.
    const now = new Date();
    const createdAt = new Date(now.getTime() - (o.createdAgoS ?? 0) * 1000);
    const batch = Array.from({ length: Math.min(due, 500) }, () => syntheticLaunch(createdAt));
    await store.writeBatch(batch.flat());
    const creates = batch.map((b) => b[0]!);
    for (let i = 0; i < creates.length; i += 50) await Promise.all(creates.slice(i, i + 50).map((c) => starter.start(c.mint, c.at)));
    for (const c of creates) launched.push({ mint: c.mint, createdAt: c.at.getTime() });
    o.onLaunched?.(launched.length);
    await sleep(Math.max(0, 100 - (Date.now() - now.getTime())));
  }
  return launched;
}
