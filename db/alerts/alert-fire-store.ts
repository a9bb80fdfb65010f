import type { Knex } from 'knex';
import type { AlertKind } from '../../domain/alerts/alert-kinds';
import type { FireFacts, FireState } from '../../domain/alerts/alert-evaluation';
import { fireKey } from '../../domain/alerts/alert-evaluation';
import { PREMIUM_SAMPLE_WINDOW_MS } from '../../domain/alerts/rule-limits';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export const ALERT_FIRE_EVENT_KIND = 'alert_fire';

export type NewFire = {
  ruleId: number;
  ownerKeyId: number | null;
  kind: AlertKind;
  mint: string;
  firedAt: Date;
  premiumSample: boolean;
  priceSol: number;
  gradProb: number | null;
  ageBucket: number | null;
  facts: FireFacts;
  /** The bot message for the owner's linked chats. */
  text: string;
};

/**
 * Durable fires. One transaction per batch records the fires (a rule fires once per mint: a repeat is a no-op),
 * for each new one the `alert_fire` outbox event the webhooks area delivers, and the bot messages to the owner's
 * linked chats that have not blocked the bot: nothing is sent that is not first a row.
 */
export function createAlertFireStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async record(fires: readonly NewFire[]): Promise<{ fireId: number; ruleId: number; mint: string }[]> {
      if (fires.length === 0) return [];
      // Fires of one mint share their facts object: serialised once, not once per fire.
      const factsJson = new Map<FireFacts, string>();
      const json = (f: FireFacts) => {
        let j = factsJson.get(f);
        if (j === undefined) factsJson.set(f, (j = JSON.stringify(f)));
        return j;
      };
      return db.transaction(async (trx) => {
        const rows: { id: string; rule_id: string; mint: string }[] = [];
        // Chunks keep each statement under Postgres's parameter limit.
        for (let i = 0; i < fires.length; i += 1000) {
          const chunk = fires.slice(i, i + 1000).map((f) => ({
            rule_id: f.ruleId,
            owner_key_id: f.ownerKeyId,
            kind: f.kind,
            mint: f.mint,
            fired_at: f.firedAt,
            premium_sample: f.premiumSample,
            price_sol: f.priceSol,
            grad_prob: f.gradProb,
            age_bucket: f.ageBucket,
            facts: json(f.facts),
          }));
          rows.push(...(await trx('alert_fires').insert(chunk).onConflict(['rule_id', 'mint']).ignore().returning(['id', 'rule_id', 'mint'])));
        }
        if (rows.length === 0) return [];
        const byKey = new Map(fires.map((f) => [fireKey(f.ruleId, f.mint), f]));
        const recorded = rows.map((r) => ({
          fireId: Number(r.id),
          ruleId: Number(r.rule_id),
          mint: r.mint,
          fire: byKey.get(fireKey(Number(r.rule_id), r.mint))!,
        }));
        for (let i = 0; i < recorded.length; i += 1000) {
          const chunk = recorded.slice(i, i + 1000);
          await trx('event_outbox').insert(
            chunk.map(({ fireId, fire: f }) => ({
              kind: ALERT_FIRE_EVENT_KIND,
              event_key: `alert:${fireId}`,
              payload: `${JSON.stringify({
                fire_id: fireId,
                rule_id: f.ruleId,
                owner_key_id: f.ownerKeyId,
                kind: f.kind,
                mint: f.mint,
                fired_at: f.firedAt.toISOString(),
              }).slice(0, -1)},"facts":${json(f.facts)}}`,
              created_at: f.firedAt,
            })),
          );
          const owned = chunk.filter((c) => c.fire.ownerKeyId !== null);
          if (owned.length === 0) continue;
          await trx.raw(
            `INSERT INTO bot_sends (chat_id, dedupe_key, text, created_at)
             SELECT c.chat_id, 'fire:' || f.fire_id || ':' || c.chat_id, f.text, f.at
               FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::timestamptz[]) AS f(fire_id, owner_key_id, text, at)
               JOIN bot_chats c ON c.owner_key_id = f.owner_key_id AND c.blocked_at IS NULL
              ORDER BY f.fire_id, c.chat_id
             ON CONFLICT (dedupe_key) DO NOTHING`,
            [owned.map((c) => c.fireId), owned.map((c) => c.fire.ownerKeyId), owned.map((c) => c.fire.text), owned.map((c) => c.fire.firedAt)] as Knex.Value[],
          );
        }
        return recorded.map(({ fireId, ruleId, mint }) => ({ fireId, ruleId, mint }));
      });
    },

    /**
     * Watch events: each (watch, event) is recorded once (a repeat is a no-op) and, when new, queued for the owner's
     * linked chats that have not blocked the bot, in one transaction. Returns how many were new.
     */
    async recordWatchEvents(events: readonly { ownerKeyId: number; mint: string; event: string; at: Date; text: string }[]): Promise<number> {
      if (events.length === 0) return 0;
      return db.transaction(async (trx) => {
        let n = 0;
        for (let i = 0; i < events.length; i += 1000) {
          const chunk = events.slice(i, i + 1000);
          const r = await trx.raw(
            `WITH ev AS (
               INSERT INTO alert_watch_events (owner_key_id, mint, event, fired_at)
               SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::timestamptz[])
               ON CONFLICT DO NOTHING
               RETURNING owner_key_id, mint, event, fired_at),
             q AS (
               INSERT INTO bot_sends (chat_id, dedupe_key, text, created_at)
               SELECT c.chat_id, 'watch:' || ev.owner_key_id || ':' || ev.mint || ':' || ev.event || ':' || c.chat_id, t.text, ev.fired_at
                 FROM ev
                 JOIN unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) AS t(owner_key_id, mint, event, text)
                   ON t.owner_key_id = ev.owner_key_id AND t.mint = ev.mint AND t.event = ev.event
                 JOIN bot_chats c ON c.owner_key_id = ev.owner_key_id AND c.blocked_at IS NULL
                ORDER BY ev.owner_key_id, ev.mint, ev.event, c.chat_id
               ON CONFLICT (dedupe_key) DO NOTHING)
             SELECT count(*)::int AS n FROM ev`,
            [
              chunk.map((e) => e.ownerKeyId),
              chunk.map((e) => e.mint),
              chunk.map((e) => e.event),
              chunk.map((e) => e.at),
              chunk.map((e) => e.ownerKeyId),
              chunk.map((e) => e.mint),
              chunk.map((e) => e.event),
              chunk.map((e) => e.text),
            ] as Knex.Value[],
          );
          n += r.rows[0].n;
        }
        return n;
      });
    },

    /** What an evaluator starting up must know: fires on mints created since `since`, and Free owners' last premium samples. */
    async fireState(mintsSince: Date, now: Date): Promise<FireState> {
      const fired = await db('alert_fires as f').join('mints as m', 'm.mint', 'f.mint').where('m.created_at', '>=', mintsSince).select('f.rule_id', 'f.mint');
      const premium = await db('alert_fires')
        .where('premium_sample', true)
        .where('fired_at', '>', new Date(now.getTime() - PREMIUM_SAMPLE_WINDOW_MS))
        .groupBy('owner_key_id')
        .select('owner_key_id', db.raw('max(fired_at) AS at'));
      return {
        fired: new Set(fired.map((r) => fireKey(Number(r.rule_id), r.mint))),
        lastPremiumAt: new Map(premium.map((r) => [Number(r.owner_key_id), new Date(r.at).getTime()])),
      };
    },
  };
}
export type AlertFireStore = ReturnType<typeof createAlertFireStore>;
