import type { CommitRecord } from '../../domain/ledger/commit-record';
import type { BuiltHourCommit } from '../../domain/ledger/hour-commit-builder';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type StoredAnchor = { memo: string; signature: string; signer: string; slot: number; blockTime: Date | null; confirmedAt: Date };
/** A commit as stored, with its anchor once confirmed and whether a memo transaction is out for it. */
export type StoredCommit = CommitRecord & {
  id: number;
  digestHex: string;
  committedAt: Date;
  anchor: StoredAnchor | null;
  anchorSent: boolean;
};

/** Another run committed the same hour first with a different result: never expected (the hour is sealed). */
export class ConflictingCommitError extends Error {
  override readonly name = 'ConflictingCommitError';
}

const COMMIT_COLUMNS = [
  'c.id',
  'c.track',
  'c.hour_start',
  'c.leaf_version',
  'c.leaf_count',
  'c.first_id',
  'c.last_id',
  'c.root_hex',
  'c.prev_root_hex',
  'c.record_digest_hex',
  'c.committed_at',
  'a.memo as anchor_memo',
  'a.signature as anchor_signature',
  'a.signer as anchor_signer',
  'a.slot as anchor_slot',
  'a.block_time as anchor_block_time',
  'a.confirmed_at as anchor_confirmed_at',
];

function toCommit(r: Record<string, any>): StoredCommit {
  return {
    id: r.id,
    track: r.track,
    hourStart: r.hour_start,
    leafVersion: r.leaf_version,
    leafCount: r.leaf_count,
    firstId: r.first_id,
    lastId: r.last_id,
    rootHex: r.root_hex,
    prevRootHex: r.prev_root_hex,
    digestHex: r.record_digest_hex,
    committedAt: r.committed_at,
    anchor: r.anchor_signature
      ? {
          memo: r.anchor_memo,
          signature: r.anchor_signature,
          signer: r.anchor_signer,
          slot: r.anchor_slot,
          blockTime: r.anchor_block_time,
          confirmedAt: r.anchor_confirmed_at,
        }
      : null,
    anchorSent: r.anchor_sent === true,
  };
}

export function createLedgerCommitStore(handle: Db) {
  const db = knexOf(handle);
  const commits = () =>
    db('ledger_commits as c')
      .leftJoin('ledger_anchors as a', 'a.commit_id', 'c.id')
      .select(COMMIT_COLUMNS)
      .select(db.raw('EXISTS (SELECT 1 FROM ledger_anchor_attempts t WHERE t.commit_id = c.id) AS anchor_sent'));

  return {
    async byHour(track: string, hourStart: Date): Promise<StoredCommit | null> {
      const r = await commits().where({ 'c.track': track, 'c.hour_start': hourStart }).first();
      return r ? toCommit(r) : null;
    },

    async byId(id: number): Promise<StoredCommit | null> {
      const r = await commits().where('c.id', id).first();
      return r ? toCommit(r) : null;
    },

    /** The track's commit of the latest hour before `hourStart`, or null when there is none. */
    async before(track: string, hourStart: Date): Promise<StoredCommit | null> {
      const r = await commits().where('c.track', track).where('c.hour_start', '<', hourStart).orderBy('c.hour_start', 'desc').first();
      return r ? toCommit(r) : null;
    },

    /**
     * Chain order (oldest first). With `since` (an hour start), the first `limit` commits after it; without, the
     * newest `limit` commits.
     */
    async list(track: string, o: { since?: Date; limit: number }): Promise<StoredCommit[]> {
      if (o.since) {
        const rows = await commits().where('c.track', track).where('c.hour_start', '>', o.since).orderBy('c.hour_start').limit(o.limit);
        return rows.map(toCommit);
      }
      const rows = await commits().where('c.track', track).orderBy('c.hour_start', 'desc').limit(o.limit);
      return rows.map(toCommit).reverse();
    },

    async count(track: string): Promise<number> {
      const r = await db('ledger_commits').where({ track }).first(db.raw('count(*)::int AS n'));
      return (r as { n: number }).n;
    },

    /** Per track: how many commits, how many anchored on chain, the latest hour committed. */
    async facts(): Promise<Record<string, { commits: number; anchored: number; latest: Date | null }>> {
      const rows = await db('ledger_commits as c')
        .leftJoin('ledger_anchors as a', 'a.commit_id', 'c.id')
        .groupBy('c.track')
        .select('c.track', db.raw('count(*)::int AS commits'), db.raw('count(a.commit_id)::int AS anchored'), db.raw('max(c.hour_start) AS latest'));
      return Object.fromEntries(rows.map((r) => [r.track, { commits: r.commits, anchored: r.anchored, latest: r.latest }]));
    },

    /**
     * Stores a built commit, its tree levels and each leaf's place, in one transaction. Idempotent: when the hour
     * already has a commit (a retried or duplicated run) nothing is written and the stored one is returned, which
     * must be the same commit; a different one is a `ConflictingCommitError`.
     */
    async write(built: BuiltHourCommit, now: Date): Promise<{ commit: StoredCommit; created: boolean }> {
      const r = built.record;
      const created = await db.transaction(async (trx) => {
        const inserted = await trx('ledger_commits')
          .insert({
            track: r.track,
            hour_start: r.hourStart,
            leaf_version: r.leafVersion,
            leaf_count: r.leafCount,
            first_id: r.firstId,
            last_id: r.lastId,
            root_hex: r.rootHex,
            prev_root_hex: r.prevRootHex,
            record_digest_hex: built.digestHex,
            committed_at: now,
          })
          .onConflict(['track', 'hour_start'])
          .ignore()
          .returning('id');
        const id = inserted[0]?.id as number | undefined;
        if (id === undefined) return false;
        await trx('ledger_tree_levels').insert(
          built.levels.map((nodes, level) => ({ commit_id: id, level, nodes: Buffer.from(nodes.buffer, nodes.byteOffset, nodes.length) })),
        );
        await trx.raw(
          `INSERT INTO ledger_leaves (track, item_id, commit_id, leaf_index)
           SELECT ?, u.item_id, ?, (u.ord - 1)::int FROM unnest(?::bigint[]) WITH ORDINALITY AS u(item_id, ord)`,
          // As an array literal: knex would spread a JS array into one placeholder per element.
          [r.track, id, `{${built.ids.join(',')}}`],
        );
        return true;
      });
      const stored = await this.byHour(r.track, r.hourStart);
      if (!stored) throw new Error(`commit of ${r.track} ${r.hourStart.toISOString()} vanished`);
      if (stored.rootHex !== r.rootHex || stored.digestHex !== built.digestHex) {
        throw new ConflictingCommitError(`${r.track} ${r.hourStart.toISOString()} is already committed with root ${stored.rootHex}, not ${r.rootHex}`);
      }
      return { commit: stored, created };
    },
  };
}
export type LedgerCommitStore = ReturnType<typeof createLedgerCommitStore>;
