import type { Knex } from 'knex';
import { isAlertKind, type AlertKind, type AlertRule, type RuleParam } from '../../domain/alerts/alert-kinds';
import { canAddRule, type AddRuleVerdict } from '../../domain/alerts/rule-limits';
import { effectiveTier, type HolderThresholds, type Tier } from '../../domain/access/tiers';
import type { IndexedRule } from '../../domain/alerts/alert-evaluation';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** The evaluation rules' version each rule records (the audit names it). */
export const ALERT_RULES_VERSION = 'alerts-v1';

type RuleRow = { id: string; owner_key_id: string | null; kind: string; threshold: number; wallet: string | null };
const toRule = (r: RuleRow): AlertRule => {
  if (!isAlertKind(r.kind)) throw new Error(`alert_rules.kind ${r.kind}`);
  return { id: Number(r.id), ownerKeyId: r.owner_key_id === null ? null : Number(r.owner_key_id), kind: r.kind, threshold: r.threshold, wallet: r.wallet };
};

type KeyRow = { tier: Tier; plan_expires_at: Date | null; custom_daily_quota: number | null; holder_balance: string | number | null };
export const keyTier = (k: KeyRow, now: Date, th: HolderThresholds): Tier =>
  effectiveTier(
    {
      tier: k.tier,
      planExpiresAt: k.plan_expires_at,
      customDailyQuota: k.custom_daily_quota,
      holderBalance: k.holder_balance === null ? null : Number(k.holder_balance),
    },
    now,
    th,
  );

/** Rules or watches changed: the evaluator rebuilds its index at its next refresh. */
export async function touch(trx: Knex, at: Date) {
  await trx.raw('INSERT INTO alert_rules_version (id, changed_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET changed_at = excluded.changed_at', [at]);
}

/** Alert rules: added under the owner's tier limits (checked with the owner's key row locked), listed, removed. */
export function createAlertRuleStore(handle: Db, o: { holderThresholds: HolderThresholds }) {
  const db = knexOf(handle);
  return {
    async add(
      ownerKeyId: number,
      kind: AlertKind,
      param: RuleParam,
      now: Date,
    ): Promise<({ ok: true; rule: AlertRule } | { ok: false; reason: string }) & { tier: Tier }> {
      return db.transaction(async (trx) => {
        // The key row's lock serialises two adds of one owner, so neither can pass the limit on a stale count.
        const key = await trx('api_keys').where({ id: ownerKeyId }).whereNull('revoked_at').forUpdate().first();
        if (!key) return { ok: false as const, reason: 'this API key is no longer valid; /link another', tier: 'free' as Tier };
        const tier = keyTier(key, now, o.holderThresholds);
        const existing = await trx('alert_rules').where({ owner_key_id: ownerKeyId }).whereNull('removed_at').select('kind');
        const verdict: AddRuleVerdict = canAddRule(tier, existing, kind);
        if (!verdict.ok) return { ...verdict, tier };
        const [row] = await trx('alert_rules')
          .insert({ owner_key_id: ownerKeyId, kind, threshold: param.threshold, wallet: param.wallet, version: ALERT_RULES_VERSION, created_at: now })
          .returning(['id', 'owner_key_id', 'kind', 'threshold', 'wallet']);
        await touch(trx, now);
        return { ok: true as const, rule: toRule(row), tier };
      });
    },

    async list(ownerKeyId: number): Promise<AlertRule[]> {
      const rows = await db('alert_rules')
        .where({ owner_key_id: ownerKeyId })
        .whereNull('removed_at')
        .orderBy('id')
        .select('id', 'owner_key_id', 'kind', 'threshold', 'wallet');
      return rows.map(toRule);
    },

    /** Removes one of the owner's rules; false when it is not theirs or already removed. */
    async remove(ownerKeyId: number, ruleId: number, now: Date): Promise<boolean> {
      return db.transaction(async (trx) => {
        const n = await trx('alert_rules').where({ id: ruleId, owner_key_id: ownerKeyId }).whereNull('removed_at').update({ removed_at: now });
        if (n > 0) await touch(trx, now);
        return n > 0;
      });
    },

    /**
     * The service's audited rule of a kind at `threshold` (the one GET /api/alerts/audit reports): kept when it
     * matches, else the old one is retired and a new one starts, so the audit never mixes two thresholds.
     */
    async ensureHouseRule(kind: AlertKind, threshold: number, now: Date): Promise<AlertRule> {
      return db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(7301160001)');
        const current = await trx('alert_rules').whereNull('owner_key_id').where({ kind }).whereNull('removed_at').first();
        if (current && current.threshold === threshold && current.version === ALERT_RULES_VERSION) return toRule(current);
        if (current) await trx('alert_rules').where({ id: current.id }).update({ removed_at: now });
        const [row] = await trx('alert_rules')
          .insert({ owner_key_id: null, kind, threshold, wallet: null, version: ALERT_RULES_VERSION, created_at: now })
          .returning(['id', 'owner_key_id', 'kind', 'threshold', 'wallet']);
        await touch(trx, now);
        return toRule(row);
      });
    },

    async version(): Promise<number> {
      const r = await db('alert_rules_version').where({ id: 1 }).first('changed_at');
      return r ? r.changed_at.getTime() : 0;
    },

    /** Every rule in force with its owner's effective tier now (house rules count as unlimited). */
    async rulesWithTiers(now: Date): Promise<{ rule: AlertRule; tier: Tier }[]> {
      const rows = await db('alert_rules as r')
        .leftJoin('api_keys as k', 'k.id', 'r.owner_key_id')
        .whereNull('r.removed_at')
        .where((q) => q.whereNull('r.owner_key_id').orWhereNull('k.revoked_at'))
        .orderBy('r.id')
        .select('r.id', 'r.owner_key_id', 'r.kind', 'r.threshold', 'r.wallet', 'k.tier', 'k.plan_expires_at', 'k.custom_daily_quota', 'k.holder_balance');
      return rows.map((r) => ({ rule: toRule(r), tier: r.owner_key_id === null ? ('enterprise' as Tier) : keyTier(r, now, o.holderThresholds) }));
    },
  };
}
export type AlertRuleStore = ReturnType<typeof createAlertRuleStore>;
export type { IndexedRule };
