import type { GateState } from '../../domain/accuracy/survival-gate';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Auto-lift gates as last evaluated by the accuracy recompute. */
export function createGateStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async read(name: string): Promise<GateState | null> {
      const r = await db('model_gates').where({ name }).first();
      return r ? { state: r.state, since: r.since, reason: r.reason, evidence: r.evidence, evaluatedAt: r.evaluated_at } : null;
    },

    async write(name: string, g: GateState): Promise<void> {
      await db('model_gates')
        .insert({ name, state: g.state, since: g.since, reason: g.reason, evidence: JSON.stringify(g.evidence), evaluated_at: g.evaluatedAt })
        .onConflict('name')
        .merge();
    },
  };
}
export type GateStore = ReturnType<typeof createGateStore>;
