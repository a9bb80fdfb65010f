import { createLedgerCommitStore, type StoredCommit } from '../ledger/ledger-commit-store';
import type { Db } from '../db-handle';

export const PERPS_TRACK = 'perps';

/**
 * The perps track's commits as the observatory lists them: the audit ledger's `perps` track (db/ledger; sealed,
 * committed and proved like every track), where migration 0026 carried the commits of the perps area's own chain.
 */
export function createPerpsLedgerStore(handle: Db) {
  const commits = createLedgerCommitStore(handle);
  return {
    /** The newest `limit` commits, newest first. */
    async list(limit: number): Promise<StoredCommit[]> {
      return (await commits.list(PERPS_TRACK, { limit })).reverse();
    },

    async count(): Promise<number> {
      return commits.count(PERPS_TRACK);
    },
  };
}
export type PerpsLedgerStore = ReturnType<typeof createPerpsLedgerStore>;
