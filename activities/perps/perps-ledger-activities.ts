import type { PerpsLedgerStore } from '../../db/perps/perps-ledger-store';
import { planHourCommit } from '../../domain/ledger/commit-chain';
import { PERPS_ENTRY_LEAF_V1 } from '../../domain/perps/perps-entry-leaf';
import { perpsLedgerCutoff } from '../../domain/perps/perps-ledger-policy';
import { heartbeat } from './activity-support';

export type PerpsLedgerDeps = { ledgerStore: PerpsLedgerStore; now: () => Date };
export type PerpsLedgerResult = { committed: number; hours: string[]; latestHour: string | null };

/** Hours committed per call: a backlog (the worker down for a day) is worked off over a few scheduled runs. */
const HOURS_PER_CALL = 48;

export function createPerpsLedgerActivities(d: PerpsLedgerDeps) {
  return {
    /**
     * Commits every closed hour with smart entries after the track's latest commit, oldest first, each chained to
     * the one before (domain/ledger). An hour already committed (a retry, two runs at once) is left as it is.
     */
    async commitPerpsLedger(): Promise<PerpsLedgerResult> {
      const cutoff = perpsLedgerCutoff(d.now());
      let previous = (await d.ledgerStore.latest()) ?? null;
      const from = previous ? new Date(previous.hourStart.getTime() + 3_600_000) : null;
      const hours = await d.ledgerStore.hoursWithSmartEntries(from, cutoff, HOURS_PER_CALL);
      const done: string[] = [];
      for (const hourStart of hours) {
        const leaves = (await d.ledgerStore.smartEntryLeaves(hourStart)).map((e) => PERPS_ENTRY_LEAF_V1.build(e));
        const plan = planHourCommit({ track: PERPS_ENTRY_LEAF_V1.track, leafVersion: PERPS_ENTRY_LEAF_V1.version, hourStart, leaves, previous });
        if (!plan) continue;
        if (!(await d.ledgerStore.insert(plan.record, d.now()))) break; // another run committed it: the next run starts after it
        previous = { ...plan.record, digestHex: '', committedAt: d.now() };
        done.push(hourStart.toISOString());
        heartbeat({ committed: done.length });
      }
      return { committed: done.length, hours: done, latestHour: previous ? previous.hourStart.toISOString() : null };
    },
  };
}
export type PerpsLedgerActivities = ReturnType<typeof createPerpsLedgerActivities>;
