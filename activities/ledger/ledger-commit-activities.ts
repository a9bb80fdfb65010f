import { ApplicationFailure } from '@temporalio/activity';
import type { LedgerAnchorStore } from '../../db/ledger/ledger-anchor-store';
import { ConflictingCommitError, type LedgerCommitStore, type StoredCommit } from '../../db/ledger/ledger-commit-store';
import type { LedgerRows } from '../../db/ledger/ledger-row-sources';
import type { LedgerSealStore } from '../../db/ledger/ledger-seal-store';
import { HourCommitBuilder } from '../../domain/ledger/hour-commit-builder';
import { utcHourEnd } from '../../domain/ledger/ledger-hour';
import { LeafFieldError } from '../../domain/ledger/leaf-fields';
import { sealHorizon } from '../../domain/ledger/ledger-schedule';
import type { LedgerCommitResult, LedgerDue } from '../../workflows/ledger/ledger-commit-contract';

export type LedgerCommitDeps = {
  ledgerRows: LedgerRows[];
  sealStore: LedgerSealStore;
  commitStore: LedgerCommitStore;
  anchorStore: LedgerAnchorStore;
  graceS: number;
  /** A signing key is configured: every commit gets an anchor. */
  anchoring: boolean;
  now: () => Date;
};

/** Hours committed per track per scheduled run (the next run takes the rest): bounds a run's history. */
export const MAX_HOURS_PER_RUN = 48;
/** Rows read per round trip while an hour is committed. */
const PAGE = 5000;

const resultOf = (c: StoredCommit, created: boolean): LedgerCommitResult => ({
  commitId: c.id,
  track: c.track,
  hourStart: c.hourStart.toISOString(),
  leafCount: c.leafCount,
  rootHex: c.rootHex,
  created,
});

export function createLedgerCommitActivities(d: LedgerCommitDeps) {
  const rowsOf = (track: string) => {
    const rows = d.ledgerRows.find((r) => r.track === track);
    if (!rows) throw ApplicationFailure.nonRetryable(`ledger track ${track} has no row source`, 'UnknownLedgerTrack');
    return rows;
  };

  return {
    /**
     * Seals every track up to the hours that closed `graceS` ago and lists, per track and oldest first, the sealed
     * hours still to commit; with anchoring on, also commits still without an anchor.
     */
    async sealLedgerHours(): Promise<LedgerDue> {
      const now = d.now();
      const horizon = sealHorizon(now, d.graceS);
      const tracks: LedgerDue['tracks'] = [];
      for (const rows of d.ledgerRows) {
        const sealed = await d.sealStore.seal(rows.track, horizon, now);
        const due = await d.sealStore.uncommitted(rows.track, MAX_HOURS_PER_RUN);
        tracks.push({ track: rows.track, sealedNow: sealed.length, due: due.map((h) => h.hourStart.toISOString()) });
      }
      const unanchored = d.anchoring ? await d.anchorStore.unanchored(10) : [];
      return {
        sealedUntil: horizon.toISOString(),
        tracks,
        anchoring: d.anchoring,
        unanchored: unanchored.map((u) => ({ commitId: u.commitId, track: u.track, hourStart: u.hourStart.toISOString() })),
      };
    },

    /**
     * Commits one sealed hour: its rows in tree order, chained to the track's previous commit. Idempotent: an
     * hour already committed answers its commit (`created: false`), and the store refuses a second, different one.
     */
    async commitLedgerHour(input: { track: string; hourStart: string }): Promise<LedgerCommitResult> {
      const hourStart = new Date(input.hourStart);
      const rows = rowsOf(input.track);
      const existing = await d.commitStore.byHour(input.track, hourStart);
      if (existing) return resultOf(existing, false);
      const sealed = await d.sealStore.sealedHour(input.track, hourStart);
      if (!sealed) throw ApplicationFailure.nonRetryable(`${input.track} ${input.hourStart} is not a sealed hour with rows`, 'HourNotSealed');
      const [first] = await d.sealStore.uncommitted(input.track, 1);
      // The chain goes hour by hour: an earlier sealed hour is committed first (the scheduler does so in order).
      if (first && first.hourStart.getTime() < hourStart.getTime()) throw new Error(`${input.track} ${first.hourStart.toISOString()} is not committed yet`);
      const previous = await d.commitStore.before(input.track, hourStart);

      const builder = new HourCommitBuilder(input.track, rows.leafVersion, hourStart, sealed.rowCount);
      const range = { from: hourStart, to: utcHourEnd(hourStart) };
      try {
        const ids = await rows.treeOrder(range);
        for (let i = 0; i < ids.length; i += PAGE) {
          for (const leaf of await rows.leavesOf(ids.slice(i, i + PAGE))) builder.add(leaf);
        }
      } catch (e) {
        // A stored row that cannot be a leaf stops this track's chain until someone looks: never skipped silently.
        if (e instanceof LeafFieldError || e instanceof RangeError) throw ApplicationFailure.nonRetryable(e.message, 'UnbuildableLeaf');
        throw e;
      }
      if (builder.count !== sealed.rowCount) {
        throw ApplicationFailure.nonRetryable(
          `${input.track} ${input.hourStart}: ${builder.count} rows now, ${sealed.rowCount} when sealed`,
          'SealedRowsChanged',
        );
      }
      const built = builder.finish(previous)!;
      try {
        const { commit, created } = await d.commitStore.write(built, d.now());
        return resultOf(commit, created);
      } catch (e) {
        if (e instanceof ConflictingCommitError) throw ApplicationFailure.nonRetryable(e.message, 'ConflictingCommit');
        throw e;
      }
    },
  };
}
export type LedgerCommitActivities = ReturnType<typeof createLedgerCommitActivities>;
