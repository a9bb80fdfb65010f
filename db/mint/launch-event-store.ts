import { eventKey, type CompleteEvent, type CreateEvent, type LaunchEvent, type MigrateEvent, type TradeEvent } from '../../domain/launch/launch-events';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type NewMint = { mint: string; createdAt: Date; mayhem: boolean };
export type WriteResult = {
  newMints: NewMint[];
  newGraduations: { mint: string; at: Date }[];
  tradesInserted: number;
  /** Events of the batch that stored something new (a row, or a graduation time not yet known); the rest were already stored. */
  written: number;
};

/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest table. */
const CHUNK = 1000;
/**
 * A graduation is two events, each filling its own half of the mint's row once: the complete event its time and
 * signature, the migrate event its time and pool. Either may come first, or alone.
 */
const COMPLETE_HALF = { at: 'completed_at', detail: 'complete_signature' } as const;
const MIGRATE_HALF = { at: 'migrated_at', detail: 'pool' } as const;

function chunks<T>(xs: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

/**
 * Writes a batch of feed events in one transaction. Every insert is keyed by the feeds' natural keys and
 * ignores conflicts, so the same batch written twice (a retry, a second feed) changes nothing twice. Returns
 * what is new, so the caller starts workflows and sends graduation signals only once the rows are durable, and
 * counts it from the rows the statements report (no extra round trip).
 */
export function createLaunchEventStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async writeBatch(events: LaunchEvent[]): Promise<WriteResult> {
      const creates = events.filter((e): e is CreateEvent => e.kind === 'create');
      const trades = events.filter((e): e is TradeEvent => e.kind === 'trade');
      const completes = events.filter((e): e is CompleteEvent => e.kind === 'complete');
      const migrates = events.filter((e): e is MigrateEvent => e.kind === 'migrate');
      return db.transaction(async (trx) => {
        const newMints: NewMint[] = [];
        for (const part of chunks(dedupe(creates, (c) => c.mint))) {
          const rows = await trx('mints')
            .insert(
              part.map((c) => ({
                mint: c.mint,
                creator: c.creator,
                name: c.name.slice(0, 200),
                symbol: c.symbol.slice(0, 50),
                uri: c.uri.slice(0, 500),
                bonding_curve: c.bondingCurve,
                mayhem: c.mayhem,
                created_at: c.at,
                create_signature: c.signature,
                slot: c.slot,
                initial_v_sol_lamports: c.vSolLamports,
                initial_v_tokens_raw: c.vTokensRaw,
                source: c.source,
              })),
            )
            .onConflict('mint')
            .ignore()
            .returning(['mint', 'created_at', 'mayhem']);
          for (const r of rows) newMints.push({ mint: r.mint, createdAt: r.created_at, mayhem: r.mayhem });
        }

        let tradesInserted = 0;
        for (const part of chunks(dedupe(trades, eventKey))) {
          const rows = await trx('trades')
            .insert(
              part.map((t) => ({
                event_key: eventKey(t),
                mint: t.mint,
                signature: t.signature,
                at: t.at,
                slot: t.slot,
                trader: t.trader,
                is_buy: t.isBuy,
                sol_lamports: t.solLamports,
                tokens_raw: t.tokensRaw,
                v_sol_lamports: t.vSolLamports,
                v_tokens_raw: t.vTokensRaw,
                source: t.source,
              })),
            )
            .onConflict('event_key')
            .ignore()
            .returning('seq');
          tradesInserted += rows.length;
        }

        // A graduation is new when this batch creates its row, from either the complete or the migrate event. The
        // update only fills a time still missing, so a row comes back only when the event stored something.
        const newGraduations: { mint: string; at: Date }[] = [];
        let graduationEventsWritten = 0;
        const halves = [
          ...dedupe(completes, (e) => e.mint).map((c) => ({ mint: c.mint, at: c.at, source: c.source, half: COMPLETE_HALF, detail: c.signature })),
          ...dedupe(migrates, (e) => e.mint).map((m) => ({ mint: m.mint, at: m.at, source: m.source, half: MIGRATE_HALF, detail: m.pool })),
        ];
        for (const g of halves) {
          const r = await trx.raw(
            `INSERT INTO mint_graduations (mint, ??, ??, source) VALUES (?, ?, ?, ?)
             ON CONFLICT (mint) DO UPDATE SET ?? = COALESCE(mint_graduations.??, EXCLUDED.??), ?? = COALESCE(mint_graduations.??, EXCLUDED.??)
             WHERE mint_graduations.?? IS NULL
             RETURNING (xmax = 0) AS inserted`,
            [g.half.at, g.half.detail, g.mint, g.at, g.detail, g.source, ...Array(3).fill(g.half.at), ...Array(3).fill(g.half.detail), g.half.at],
          );
          graduationEventsWritten += r.rows.length;
          if (r.rows[0]?.inserted) newGraduations.push({ mint: g.mint, at: g.at });
        }
        return { newMints, newGraduations, tradesInserted, written: newMints.length + tradesInserted + graduationEventsWritten };
      });
    },

    /** Non-mayhem mints whose lifecycle workflow has not been confirmed started (the outbox). */
    async pendingWorkflowStarts(since: Date, limit: number): Promise<NewMint[]> {
      const rows = await db('mints')
        .whereNull('workflow_started_at')
        .where('mayhem', false)
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .limit(limit)
        .select('mint', 'created_at', 'mayhem');
      return rows.map((r) => ({ mint: r.mint, createdAt: r.created_at, mayhem: r.mayhem }));
    },

    async markWorkflowStarted(mints: string[], at: Date): Promise<void> {
      if (mints.length) await db('mints').whereIn('mint', mints).update({ workflow_started_at: at });
    },

    async pendingGraduationSignals(limit: number): Promise<{ mint: string; at: Date }[]> {
      const rows = await db('mint_graduations').whereNull('signalled_at').limit(limit).select('mint', 'completed_at', 'migrated_at');
      return rows.map((r) => ({ mint: r.mint, at: r.completed_at ?? r.migrated_at }));
    },

    async markSignalled(mints: string[], at: Date): Promise<void> {
      if (mints.length) await db('mint_graduations').whereIn('mint', mints).update({ signalled_at: at });
    },

    /**
     * Where a restarted feed resumes: among this source's most recent durable transactions, the last one of the
     * slot before the newest slot (transactions of the newest slot may have been stored only in part). A feed
     * that can backfill re-reads everything after it; re-read events are de-duplicated on write.
     */
    async resumeSignature(source: string): Promise<string | null> {
      const trades = await db('trades').where({ source }).whereNotNull('slot').orderBy('seq', 'desc').limit(2000).select('signature', 'slot');
      const creates = await db('mints')
        .where({ source })
        .whereNotNull('slot')
        .orderBy('created_at', 'desc')
        .limit(500)
        .select('create_signature as signature', 'slot');
      return resumeAnchor([...trades, ...creates] as { signature: string; slot: number }[]);
    },
  };
}
export type LaunchEventStore = ReturnType<typeof createLaunchEventStore>;

/** The last signature of the highest slot below the newest one; the newest slot's own when it is the only one. */
export function resumeAnchor(txs: { signature: string; slot: number }[]): string | null {
  if (txs.length === 0) return null;
  const newest = Math.max(...txs.map((t) => t.slot));
  const below = txs.filter((t) => t.slot < newest);
  const pool = below.length ? below : txs;
  return pool.reduce((a, b) => (b.slot > a.slot ? b : a)).signature;
}

function dedupe<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
