import { ApplicationFailure } from '@temporalio/activity';
import type { ScoreVersionStore } from '../../db/wallets/score-version-store';
import { RebuildSuperseded, type RebuildCursor, type WalletRebuildStore } from '../../db/wallets/wallet-rebuild-store';
import type { WalletRankStore } from '../../db/wallets/wallet-rank-store';
import { defineSmartScoreVersion, type SmartScoreVersion } from '../../domain/wallets/smart-score';
import type { ScoreVersionInput } from '../../workflows/wallets/wallet-rebuild-contract';
import { heartbeat, whileHeartbeating } from '../activity-heartbeat';

export type WalletRebuildDeps = {
  walletRebuildStore: WalletRebuildStore;
  walletRankStore: WalletRankStore;
  scoreVersionStore: ScoreVersionStore;
  now: () => Date;
};

/** A superseded rebuild, or a version whose id names other priors, can never succeed: fail the step for good. */
async function permanent<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RebuildSuperseded) throw ApplicationFailure.nonRetryable(err.message, 'RebuildSuperseded');
    if (err instanceof RangeError) throw ApplicationFailure.nonRetryable(err.message, 'InvalidScoreVersion');
    throw err;
  }
}

export function createWalletRebuildActivities(d: WalletRebuildDeps) {
  const versionOf = async (id: string): Promise<SmartScoreVersion> => {
    const v = await d.scoreVersionStore.byId(id);
    if (!v) throw ApplicationFailure.nonRetryable(`unknown score version ${id}`, 'InvalidScoreVersion');
    return v;
  };

  return {
    /** Takes the `_next` tables and creates them empty; registers the version to publish (the published one when none is given). */
    async prepareWalletRebuild(input: { rebuildId: string; scoreVersion: ScoreVersionInput | null }): Promise<{ scoreVersion: string; totalMints: number }> {
      return permanent(async () => {
        const v = input.scoreVersion
          ? defineSmartScoreVersion(
              input.scoreVersion.id,
              input.scoreVersion.priorGraduationRate,
              input.scoreVersion.priorRugRate,
              input.scoreVersion.priorStrength,
            )
          : await d.scoreVersionStore.active();
        const { totalMints } = await d.walletRebuildStore.prepare(input.rebuildId, v, d.now());
        return { scoreVersion: v.id, totalMints };
      });
    },

    /** One batch of resolved mints in creation order, applied to the next tables; heartbeats where it is. */
    async rebuildWalletBatch(input: { rebuildId: string; after: RebuildCursor | null; limit: number; defaultHorizonS: number }) {
      return permanent(async () => {
        heartbeat({ after: input.after });
        const r = await d.walletRebuildStore.batch(input.rebuildId, input.after, input.limit, input.defaultHorizonS);
        heartbeat({ cursor: r.cursor, mints: r.mints });
        return { mints: r.mints, buyers: r.buyers, walletsAdded: r.walletsAdded, cursor: r.cursor, done: r.done };
      });
    },

    /** The leaderboard indexes of the published version and of the rebuild's on the next records. */
    async indexWalletRebuild(input: { rebuildId: string; scoreVersion: string }): Promise<{ indexes: string[] }> {
      return permanent(async () => {
        const versions = [await d.scoreVersionStore.active(), await versionOf(input.scoreVersion)];
        const indexes = await whileHeartbeating(
          () => ({ phase: 'indexing' }),
          () => d.walletRebuildStore.buildIndexes(input.rebuildId, versions),
        );
        return { indexes };
      });
    },

    /** Catches the next set up with what resolutions applied meanwhile, then swaps it in and publishes the version. */
    async swapWalletRebuild(input: { rebuildId: string; scoreVersion: string }): Promise<{ caughtUp: number; wallets: number }> {
      return permanent(async () => {
        const v = await versionOf(input.scoreVersion);
        const before = await whileHeartbeating(
          () => ({ phase: 'catching_up' }),
          () => d.walletRebuildStore.catchUp(input.rebuildId),
        );
        const swapped = await whileHeartbeating(
          () => ({ phase: 'swapping' }),
          () => d.walletRebuildStore.swap(input.rebuildId, v, before.startedAt, d.now()),
        );
        return { caughtUp: before.mints + swapped.caughtUp, wallets: swapped.wallets };
      });
    },

    /** The rank snapshot of a score version (the published one when none is named): the Schedule's and the rebuild's last step. */
    async refreshWalletRanks(input: { scoreVersion?: string } = {}): Promise<{ scoreVersion: string; ranked: number; groups: number }> {
      const v = input.scoreVersion ? await versionOf(input.scoreVersion) : await d.scoreVersionStore.active();
      const r = await whileHeartbeating(
        () => ({ scoreVersion: v.id }),
        () => d.walletRankStore.refresh(v, d.now()),
      );
      return { scoreVersion: v.id, ...r };
    },
  };
}
export type WalletRebuildActivities = ReturnType<typeof createWalletRebuildActivities>;
