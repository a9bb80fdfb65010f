import type { CreateEvent, LaunchEvent, TradeEvent } from '../../domain/launch/launch-events';
import { publicKey } from '../../ingest/simulator/address-book';
import type { SeededRandom } from '../../ingest/simulator/seeded-random';
import type { KnexDb } from '../../db/knex-handle';

const BATCH = 100_000;

/**
 * Fills `wallet_records` with `n` generated records (valid 32-byte base58 keys from `rng`): the sample size is
 * geometric with 10.7% of wallets at 8 launches or more (the share the scratch measurements of docs/wallet-index.md
 * used), outcomes and snipes drawn per wallet, 5% sniper bots that snipe almost every launch. The table's indexes are
 * dropped for the load and built again afterwards from their own definitions, as a rebuild builds them. Returns a
 * sample of the generated addresses for lookups.
 */
export async function fillWalletRecords(db: KnexDb, n: number, rng: SeededRandom, sampleSize = 20_000): Promise<string[]> {
  const idx = (await db.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'wallet_records' AND indexname <> 'wallet_records_pkey'`)).rows as {
    indexname: string;
    indexdef: string;
  }[];
  for (const i of idx) await db.raw(`DROP INDEX ${i.indexname}`);
  await db.raw('ALTER TABLE wallet_records DROP CONSTRAINT wallet_records_pkey');
  await db.raw('SELECT setseed(0.42)');
  const sample: string[] = [];
  for (let done = 0; done < n; done += BATCH) {
    const keys = Array.from({ length: Math.min(BATCH, n - done) }, () => publicKey(rng));
    for (const k of keys) if (sample.length < sampleSize && rng.chance(sampleSize / n)) sample.push(k);
    await db.raw(
      `INSERT INTO wallet_records
       SELECT wallet, t, g, least(ran, g), t - g - r, r, fs, least(fs, r, sr), e, least(e, g, eg), buys, buys * (50000000 + floor(u1 * 2e9))::bigint,
              seen, seen + (u2 * t * interval '2 hours'), now()
       FROM (SELECT wallet, t, g, least(t - g, floor((t - g) * u2 * 0.7)::int) AS r, floor(g * u3)::int AS ran,
                    CASE WHEN bot THEN t - floor(t * u4 * 0.1)::int ELSE floor(t * u4 * u4 * 0.3)::int END AS fs,
                    floor(t * u5)::int AS sr, floor(t * u6 * 0.5)::int AS e, floor(g * u6)::int AS eg,
                    t + floor(t * u1 * 2)::int AS buys, u1, u2, now() - u3 * interval '180 days' AS seen
             FROM (SELECT wallet, t, floor(t * u1 * u2 * 0.5)::int AS g, u1, u2, u3, u4, u5, u6, bot
                   FROM (SELECT wallet, 1 + floor(ln(1 - random()) / ln(0.727))::int AS t, random() AS u1, random() AS u2, random() AS u3,
                                random() AS u4, random() AS u5, random() AS u6, random() < 0.05 AS bot
                         FROM unnest(?::text[]) AS k(wallet)) a) b) c`,
      [keys],
    );
  }
  await db.raw('ALTER TABLE wallet_records ADD PRIMARY KEY (wallet)');
  for (const i of idx) await db.raw(i.indexdef);
  await db('wallet_index_counts').where({ name: 'live' }).update({ wallets: n });
  await db.raw('VACUUM ANALYZE wallet_records');
  return sample;
}

/**
 * One launch on the constant-product curve bought by `buyers` (one buy each, spread over its first ten minutes),
 * as ingestion writes it: the input of one resolution.
 */
export function generatedLaunch(rng: SeededRandom, at: number, buyers: readonly string[]): LaunchEvent[] {
  const mint = publicKey(rng);
  const create: CreateEvent = {
    kind: 'create',
    signature: `bench-create-${mint}`,
    ordinal: 0,
    slot: 1000,
    at: new Date(at),
    source: 'bench',
    mint,
    name: 'Bench',
    symbol: 'BNCH',
    uri: '',
    bondingCurve: publicKey(rng),
    creator: publicKey(rng),
    mayhem: false,
    vSolLamports: 30e9,
    vTokensRaw: 1_073e12,
  };
  let vSol = create.vSolLamports;
  let vTok = create.vTokensRaw;
  const trades: TradeEvent[] = buyers.map((trader, i) => {
    const sol = Math.round(rng.uniform(0.05, 0.5) * 1e9);
    const k = vSol * vTok;
    vSol += sol;
    const next = Math.round(k / vSol);
    const tokens = vTok - next;
    vTok = next;
    const atS = (i * 600) / buyers.length;
    return {
      kind: 'trade',
      signature: `bench-${mint}-${i}`,
      ordinal: 0,
      slot: 1001 + Math.floor(atS * 2.5),
      at: new Date(at + atS * 1000),
      source: 'bench',
      mint,
      trader,
      isBuy: true,
      solLamports: sol,
      tokensRaw: tokens,
      vSolLamports: vSol,
      vTokensRaw: vTok,
    };
  });
  return [create, ...trades];
}
