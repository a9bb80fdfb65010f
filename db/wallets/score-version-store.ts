import { defineSmartScoreVersion, type SmartScoreVersion } from '../../domain/wallets/smart-score';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export const toScoreVersion = (r: { id: string; prior_graduation_rate: number; prior_rug_rate: number; prior_strength: number }): SmartScoreVersion =>
  defineSmartScoreVersion(r.id, r.prior_graduation_rate, r.prior_rug_rate, r.prior_strength);

/**
 * Smart score versions are data: a version is its priors (wallet_score_versions), and the index publishes one of them
 * (wallet_index_state.score_version), switched by the rebuild that built its indexes.
 */
export function createScoreVersionStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** The version the index publishes now. */
    async active(): Promise<SmartScoreVersion> {
      const r = await db('wallet_index_state as s')
        .join('wallet_score_versions as v', 'v.id', 's.score_version')
        .first('v.id', 'v.prior_graduation_rate', 'v.prior_rug_rate', 'v.prior_strength');
      if (!r) throw new Error('wallet_index_state has no row: the wallets migration did not run');
      return toScoreVersion(r);
    },

    async byId(id: string): Promise<SmartScoreVersion | undefined> {
      const r = await db('wallet_score_versions').where({ id }).first();
      return r ? toScoreVersion(r) : undefined;
    },

    /**
     * Registers a version, or confirms it is already registered with exactly these priors. A version never changes:
     * other priors under a known id are refused (a new id is a new version).
     */
    async register(v: SmartScoreVersion): Promise<void> {
      await db('wallet_score_versions')
        .insert({ id: v.id, prior_graduation_rate: v.priorGraduationRate, prior_rug_rate: v.priorRugRate, prior_strength: v.priorStrength })
        .onConflict('id')
        .ignore();
      const stored = await this.byId(v.id);
      if (!stored || stored.priorGraduationRate !== v.priorGraduationRate || stored.priorRugRate !== v.priorRugRate || stored.priorStrength !== v.priorStrength)
        throw new RangeError(`score version ${v.id} is already registered with other priors; a changed definition needs a new id`);
    },
  };
}
export type ScoreVersionStore = ReturnType<typeof createScoreVersionStore>;
