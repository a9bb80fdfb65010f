import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import type { CreateEvent, LaunchEvent, TradeEvent } from '../../domain/launch/launch-events';
import { confidenceBand } from '../../domain/scoring/confidence-band';
import { uniqueId } from './worker-harness';
import type { KnexDb } from '../../db/knex-handle';

// Base58 strings of the right length for addresses and signatures.
const b58 = (prefix: string, len: number) => (prefix + '1'.repeat(len)).slice(0, len).replace(/[0OIl]/g, 'x');
export const paperAddr = (tag: string) => b58(uniqueId(tag).replace(/[^1-9A-HJ-NP-Za-km-z]/g, 'z'), 44);

/**
 * One launch written as ingestion writes it (mints, trades, graduations), with trades on the curve's constant
 * product, so the paper activities price it from Postgres exactly as they price a live mint.
 */
export function paperLaunch(db: KnexDb, at = new Date()) {
  const store = createLaunchEventStore(db);
  const mint = paperAddr('mint');
  const create: CreateEvent = {
    kind: 'create',
    signature: b58(uniqueId('sig'), 88),
    ordinal: 0,
    slot: 1000,
    at,
    source: 'test',
    mint,
    name: 'Paper',
    symbol: 'PPR',
    uri: 'https://example.invalid/p.json',
    bondingCurve: paperAddr('curve'),
    creator: paperAddr('creator'),
    mayhem: false,
    vSolLamports: 30_000_000_000,
    vTokensRaw: 1_073_000_000_000_000,
  };
  let vSol = create.vSolLamports;
  let vTok = create.vTokensRaw;
  let slot = 1001;
  /** A trade `atMs` after creation: a buy of `sol` lamports (negative: a sale worth about that much). */
  const trade = (atMs: number, sol: number): TradeEvent => {
    const k = BigInt(vSol) * BigInt(vTok);
    vSol += sol;
    const newTok = Number(k / BigInt(vSol));
    const tokens = Math.abs(vTok - newTok);
    vTok = newTok;
    return {
      kind: 'trade',
      signature: b58(uniqueId('sig'), 88),
      ordinal: 0,
      slot: slot++,
      at: new Date(at.getTime() + atMs),
      source: 'test',
      mint,
      trader: paperAddr('trader'),
      isBuy: sol > 0,
      solLamports: Math.abs(sol),
      tokensRaw: tokens,
      vSolLamports: vSol,
      vTokensRaw: vTok,
    };
  };
  return {
    mint,
    create,
    write: (events: LaunchEvent[]) => store.writeBatch(events),
    trade,
    /** Writes a trade now (its time is the wall clock), so the next tick prices the position at its reserves. */
    tradeNow: (sol: number) => store.writeBatch([trade(Date.now() - at.getTime(), sol)]),
    graduate: () =>
      store.writeBatch([{ kind: 'complete', signature: b58(uniqueId('sig'), 88), ordinal: 0, slot: slot++, at: new Date(), source: 'test', mint }]),
  };
}

/**
 * A logged 30 s / 60 s score, as the mint lifecycle's scoring writes it (only the columns the paper entry reads are
 * meaningful): the trigger of a paper entry. Tests set grad_prob themselves, since a fresh corpus scores every mint
 * at its prior.
 */
export async function logScore(db: KnexDb, mint: string, bucket: 30 | 60, asOf: Date, gradProb: number): Promise<number> {
  const [row] = await db('predictions')
    .insert({
      mint,
      age_bucket: bucket,
      as_of: asOf,
      predicted_at: new Date(),
      grad_prob: gradProb,
      raw_prob: gradProb,
      model_version: 'test',
      features: JSON.stringify({}),
      calibration: JSON.stringify({ age_bucket: bucket, confidence_band: confidenceBand(gradProb), n: 0, historical_actual_rate: null, model_version: 'test' }),
      price_sol: 0,
    })
    .returning('id');
  return row.id;
}

export async function waitFor<T>(f: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
