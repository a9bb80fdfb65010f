import type { HolderThresholds } from '../../domain/access/tiers';
import type { SignalBody } from '../../domain/signals/signal-payload';
import { SIGNAL_EVENT_KIND } from '../signals/signal-store';
import type { Db } from '../db-handle';
import { asDb, knexOf } from '../knex-handle';

const CONSUMER = 'bot-signals';

/**
 * Relays composite signals (outbox kind `composite_signal`) to the bot chats subscribed to their tier, with this
 * consumer's own cursor (alert_outbox_cursors; the outbox's delivered_at belongs to no single consumer). The cursor
 * moves in the transaction that queues the messages, so a signal is queued once. A chat receives signals while its
 * key has Builder or above running, or a credited holder balance of at least the signals threshold: read at each
 * signal, so access follows the holder re-check as holdings change. While the survival gate validates, a signal whose
 * mint's logged survival score is below its split is passed over (the gate's hard suppression; the feed keeps it). A
 * new deployment starts at the newest signal.
 */
export function createSignalRelayStore(
  handle: Db,
  o: {
    holderThresholds: HolderThresholds;
    format: (s: SignalBody) => string;
    /** The crosses (prediction ids) the survival gate withholds from alerts now; passed over, the cursor moves on. */
    withheld: (predictionIds: number[], trx: Db) => Promise<Set<number>>;
  },
) {
  const db = knexOf(handle);
  return {
    async relay(now: Date, limit = 200): Promise<number> {
      return db.transaction(async (trx) => {
        await trx.raw(
          `INSERT INTO alert_outbox_cursors (consumer, last_id)
           SELECT ?, coalesce(max(id), 0) FROM event_outbox WHERE kind = ? ON CONFLICT (consumer) DO NOTHING`,
          [CONSUMER, SIGNAL_EVENT_KIND],
        );
        const cursor = await trx('alert_outbox_cursors').where({ consumer: CONSUMER }).forUpdate().first();
        const events = await trx('event_outbox')
          .where('kind', SIGNAL_EVENT_KIND)
          .where('id', '>', cursor.last_id)
          .orderBy('id')
          .limit(limit)
          .select('id', 'payload');
        if (events.length === 0) return 0;
        const withheld = await o.withheld(events.map((e) => Number(e.payload.prediction_id)).filter(Number.isSafeInteger), asDb(trx));
        for (const e of events) {
          if (withheld.has(Number(e.payload.prediction_id))) continue;
          const signal = e.payload.signal as SignalBody;
          await trx.raw(
            `INSERT INTO bot_sends (chat_id, dedupe_key, text, created_at)
             SELECT c.chat_id, 'signal:' || ? || ':' || c.chat_id, ?, ?
               FROM bot_chats c JOIN api_keys k ON k.id = c.owner_key_id
              WHERE c.blocked_at IS NULL AND ? = ANY (c.signal_tiers) AND k.revoked_at IS NULL
                AND ((k.tier <> 'free' AND (k.plan_expires_at IS NULL OR k.plan_expires_at > ?)) OR k.holder_balance >= ?)
              ORDER BY c.chat_id
             ON CONFLICT (dedupe_key) DO NOTHING`,
            [e.payload.prediction_id, o.format(signal), now, signal.tier, now, o.holderThresholds.signals],
          );
        }
        await trx('alert_outbox_cursors')
          .where({ consumer: CONSUMER })
          .update({ last_id: events[events.length - 1].id });
        return events.length;
      });
    },
  };
}
export type SignalRelayStore = ReturnType<typeof createSignalRelayStore>;
