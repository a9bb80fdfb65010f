import type { CurveReserves } from '../../domain/paper/curve-fill';
import type { PaperConfig, StrategyId } from '../../domain/paper/paper-config';
import type { PaperPosition, SeenQuote } from '../../domain/paper/paper-position';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** A 30 s / 60 s score some strategy has not judged yet. */
export type EntryCandidate = { predictionId: number; mint: string; ageBucket: number; asOf: Date; gradProb: number; decided: StrategyId[] };

export type StoredPosition = {
  id: number;
  workflowId: string;
  position: PaperPosition;
  config: PaperConfig;
  state: 'open' | 'closed';
};

export type NewPosition = { workflowId: string; predictionId: number; threshold: number; position: PaperPosition; config: PaperConfig; entrySnapshot: unknown };

/** What one strategy's entry sees and does while it holds the strategy's lock (entries are serialised per strategy). */
export type StrategyEntryTx = {
  decided(predictionId: number): Promise<boolean>;
  alreadyEntered(mint: string): Promise<boolean>;
  /** Bankroll − cost of every position + proceeds of the closed ones (domain/paper/entry-rules.ts strategyCash). */
  cashLamports(bankrollLamports: number): Promise<number>;
  insertPosition(p: NewPosition): Promise<number>;
  recordDecision(predictionId: number, decision: string, positionId: number | null, at: Date): Promise<void>;
};

const toStored = (r: any): StoredPosition => ({ id: r.id, workflowId: r.workflow_id, position: r.position, config: r.config, state: r.state });

/** Paper positions and entry decisions (migration 0019). Rows become domain objects here. */
export function createPaperPositionStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async entryCandidates(since: Date, minGradProb: number, strategies: readonly StrategyId[], limit: number): Promise<EntryCandidate[]> {
      const rows = await db.raw(
        `SELECT p.id, p.mint, p.age_bucket, p.as_of, p.grad_prob,
                coalesce(array_agg(d.strategy) FILTER (WHERE d.strategy IS NOT NULL), '{}') AS decided
           FROM predictions p
           JOIN mints m ON m.mint = p.mint AND NOT m.mayhem
           LEFT JOIN paper_entry_decisions d ON d.prediction_id = p.id
          WHERE p.as_of >= ? AND p.age_bucket IN (30, 60) AND p.grad_prob >= ?
          GROUP BY p.id
         HAVING count(d.strategy) < ?
          ORDER BY p.as_of, p.id
          LIMIT ?`,
        [since, minGradProb, strategies.length, limit],
      );
      return rows.rows.map((r: any) => ({
        predictionId: r.id,
        mint: r.mint,
        ageBucket: r.age_bucket,
        asOf: r.as_of,
        gradProb: r.grad_prob,
        decided: r.decided,
      }));
    },

    /** The curve's virtual reserves after the mint's last trade at or before `at` (its launch reserves before any). */
    async reservesAt(mint: string, at: Date): Promise<CurveReserves | null> {
      const t = await db('trades')
        .where({ mint })
        .andWhere('at', '<=', at)
        .orderBy([
          { column: 'at', order: 'desc' },
          { column: 'seq', order: 'desc' },
        ])
        .first('v_sol_lamports', 'v_tokens_raw');
      if (t) return { vSolLamports: t.v_sol_lamports, vTokensRaw: t.v_tokens_raw };
      const m = await db('mints').where({ mint }).first('initial_v_sol_lamports', 'initial_v_tokens_raw');
      return m ? { vSolLamports: m.initial_v_sol_lamports, vTokensRaw: m.initial_v_tokens_raw } : null;
    },

    /** When the curve completed (graduation), or null. */
    async graduatedAt(mint: string): Promise<Date | null> {
      const g = await db('mint_graduations').where({ mint }).first('completed_at', 'migrated_at');
      return g ? (g.completed_at ?? g.migrated_at ?? null) : null;
    },

    /** Runs `f` in one transaction holding the strategy's advisory lock, so two entries never spend the same cash. */
    async withStrategyLock<T>(strategy: StrategyId, f: (tx: StrategyEntryTx) => Promise<T>): Promise<T> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`paper-entry:${strategy}`]);
        return f({
          decided: async (predictionId) => !!(await trx('paper_entry_decisions').where({ prediction_id: predictionId, strategy }).first('strategy')),
          alreadyEntered: async (mint) => !!(await trx('paper_positions').where({ strategy, mint }).first('id')),
          cashLamports: async (bankroll) => {
            const r = await trx('paper_positions')
              .where({ strategy })
              .first(trx.raw('coalesce(sum(cost_lamports), 0)::bigint AS cost'), trx.raw('coalesce(sum(proceeds_lamports), 0)::bigint AS proceeds'));
            return bankroll - Number(r.cost) + Number(r.proceeds);
          },
          insertPosition: async (n) => {
            const p = n.position;
            const [row] = await trx('paper_positions')
              .insert({
                strategy: p.strategy,
                threshold: n.threshold,
                mint: p.mint,
                workflow_id: n.workflowId,
                prediction_id: n.predictionId,
                opened_at: new Date(p.openedAtMs),
                cost_lamports: p.entry.fill.solSpentLamports,
                position: JSON.stringify(p),
                config: JSON.stringify(n.config),
                entry_snapshot: JSON.stringify(n.entrySnapshot),
                state: 'open',
                last_quote_at: new Date(p.lastQuote.atMs),
              })
              .returning('id');
            return row.id;
          },
          recordDecision: async (predictionId, decision, positionId, at) => {
            await trx('paper_entry_decisions')
              .insert({ prediction_id: predictionId, strategy, decision, position_id: positionId, decided_at: at })
              .onConflict(['prediction_id', 'strategy'])
              .ignore();
          },
        });
      });
    },

    /** Positions whose workflow was not started yet (the entry's outbox). */
    async unstarted(limit: number): Promise<StoredPosition[]> {
      return (await db('paper_positions').whereNull('workflow_started_at').orderBy('id').limit(limit)).map(toStored);
    },

    async markStarted(id: number, at: Date): Promise<void> {
      await db('paper_positions').where({ id }).whereNull('workflow_started_at').update({ workflow_started_at: at });
    },

    /** Open positions whose workflow has started (the pricer's round; an unstarted one is started by the next entry round). */
    async openPositions(): Promise<StoredPosition[]> {
      return (await db('paper_positions').where({ state: 'open' }).whereNotNull('workflow_started_at').orderBy('id')).map(toStored);
    },

    /** Each mint's reserves after its last trade at or before `at` (its launch reserves before any), in one statement. */
    async latestReserves(mints: readonly string[], at: Date): Promise<Map<string, CurveReserves>> {
      if (!mints.length) return new Map();
      const r = await db.raw(
        `SELECT m.mint, coalesce(t.v_sol_lamports, m.initial_v_sol_lamports) AS v_sol, coalesce(t.v_tokens_raw, m.initial_v_tokens_raw) AS v_tok
           FROM mints m
           LEFT JOIN LATERAL (SELECT v_sol_lamports, v_tokens_raw FROM trades
                               WHERE trades.mint = m.mint AND trades.at <= ? ORDER BY trades.at DESC, trades.seq DESC LIMIT 1) t ON true
          WHERE m.mint = ANY(?)`,
        [at, [...mints]],
      );
      return new Map(r.rows.map((x: any) => [x.mint, { vSolLamports: Number(x.v_sol), vTokensRaw: Number(x.v_tok) }]));
    },

    /** The newest event any launch feed of the ingest has reported (domain/paper/curve-source.ts), or null before any report. */
    async tapeLastEventAt(): Promise<Date | null> {
      const r = await db.raw(`SELECT max((stats->>'lastEventAt')::timestamptz) AS at FROM ingest_feed_stats WHERE stats->>'lastEventAt' IS NOT NULL`);
      return r.rows[0]?.at ?? null;
    },

    /** The mints among these whose curve has completed (graduated). */
    async graduatedOf(mints: readonly string[]): Promise<Set<string>> {
      if (!mints.length) return new Set();
      const rows = await db('mint_graduations')
        .whereIn('mint', [...mints])
        .andWhere((q) => q.whereNotNull('completed_at').orWhereNotNull('migrated_at'))
        .select('mint');
      return new Set(rows.map((r) => r.mint));
    },

    /** The last usable quote of many open positions in one statement (what the API marks them at). */
    async recordQuotes(quotes: readonly { id: number; quote: SeenQuote }[]): Promise<void> {
      if (!quotes.length) return;
      const rows = quotes.map((q) => ({ id: q.id, q: q.quote, at: new Date(q.quote.atMs).toISOString() }));
      await db.raw(
        `UPDATE paper_positions p SET position = jsonb_set(p.position, '{lastQuote}', v.q), last_quote_at = v.at
           FROM jsonb_to_recordset(?::jsonb) AS v(id bigint, q jsonb, at timestamptz)
          WHERE p.id = v.id AND p.state = 'open' AND p.last_quote_at <= v.at`,
        [JSON.stringify(rows)],
      );
    },

    /** The last usable quote of an open position (what the API marks it at). */
    async recordQuote(id: number, q: SeenQuote): Promise<void> {
      await db('paper_positions')
        .where({ id, state: 'open' })
        .andWhere('last_quote_at', '<=', new Date(q.atMs))
        .update({ position: db.raw(`jsonb_set(position, '{lastQuote}', ?::jsonb)`, [JSON.stringify(q)]), last_quote_at: new Date(q.atMs) });
    },

    /** Closes a position once; a retried close changes nothing. */
    async close(id: number, p: PaperPosition): Promise<boolean> {
      const x = p.exit;
      if (!x) throw new Error(`position ${id} has no exit to record`);
      const cost = p.entry.fill.solSpentLamports;
      const pnl = x.fill.proceedsLamports - cost;
      const n = await db('paper_positions')
        .where({ id, state: 'open' })
        .update({
          position: JSON.stringify(p),
          state: 'closed',
          closed_at: new Date(x.atMs),
          exit_reason: x.reason,
          proceeds_lamports: x.fill.proceedsLamports,
          pnl_lamports: pnl,
          loss_pct: pnl < 0 ? -pnl / cost : 0,
        });
      return n > 0;
    },

    async get(id: number): Promise<StoredPosition | undefined> {
      const r = await db('paper_positions').where({ id }).first();
      return r ? toStored(r) : undefined;
    },

    async byStrategy(strategy: StrategyId): Promise<PaperPosition[]> {
      return (await db('paper_positions').where({ strategy }).orderBy('id').select('position')).map((r) => r.position);
    },

    async firstOpenedAt(): Promise<Date | null> {
      const r = await db('paper_positions').min('opened_at as at').first();
      return r?.at ?? null;
    },

    /**
     * Closed losing trades with loss ≥ minLossPct, newest close first, ties by strategy then mint (the order
     * domain/paper/postmortems.ts documents, so the page the limit cuts is the one the API describes), with their entry
     * snapshot and the mint's name.
     */
    async losses(minLossPct: number, limit: number) {
      const rows = await db('paper_positions as p')
        .join('mints as m', 'm.mint', 'p.mint')
        .where('p.pnl_lamports', '<', 0)
        .andWhere('p.loss_pct', '>=', minLossPct)
        // Byte order (COLLATE "C"), as the domain's string comparison: base58 mints mix cases.
        .orderByRaw('p.closed_at DESC, p.strategy COLLATE "C", p.mint COLLATE "C"')
        .limit(limit)
        .select('p.id', 'p.threshold', 'p.position', 'p.entry_snapshot', 'm.name', 'm.symbol');
      return rows.map((r) => ({
        id: r.id as number,
        threshold: r.threshold as number,
        position: r.position as PaperPosition,
        entrySnapshot: r.entry_snapshot as unknown,
        name: r.name as string,
        symbol: r.symbol as string,
      }));
    },
  };
}
export type PaperPositionStore = ReturnType<typeof createPaperPositionStore>;
