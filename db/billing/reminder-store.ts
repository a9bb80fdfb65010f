import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type ReminderChannel = 'email' | 'telegram' | 'none';
// `queued_for_bot` is only found on rows written before the messaging bot sent reminders itself.
export type ReminderStatus = 'sending' | 'sent' | 'failed' | 'queued_for_bot' | 'no_contact';
export type PlanReminder = {
  intentMemo: string;
  keyId: number;
  planExpiresAt: Date;
  channel: ReminderChannel;
  recipient: string | null;
  status: ReminderStatus;
  messageId: string | null;
  error: string | null;
};

/** One renewal reminder per activated intent; the row is written before anything is sent. */
export function createReminderStore(handle: Db) {
  const db = knexOf(handle);
  const toReminder = (r: any): PlanReminder => ({
    intentMemo: r.intent_memo,
    keyId: r.key_id,
    planExpiresAt: r.plan_expires_at,
    channel: r.channel,
    recipient: r.recipient,
    status: r.status,
    messageId: r.message_id,
    error: r.error,
  });
  return {
    /** Inserts the reminder, or returns the one a previous attempt already wrote. */
    async begin(r: Omit<PlanReminder, 'messageId' | 'error'>, at: Date): Promise<PlanReminder> {
      await db('plan_reminders')
        .insert({
          intent_memo: r.intentMemo,
          key_id: r.keyId,
          plan_expires_at: r.planExpiresAt,
          channel: r.channel,
          recipient: r.recipient,
          status: r.status,
          created_at: at,
          updated_at: at,
        })
        .onConflict('intent_memo')
        .ignore();
      return toReminder(await db('plan_reminders').where({ intent_memo: r.intentMemo }).first());
    },
    async finish(memo: string, o: { status: ReminderStatus; messageId?: string | null; error?: string | null }, at: Date): Promise<void> {
      await db('plan_reminders')
        .where({ intent_memo: memo })
        .update({ status: o.status, message_id: o.messageId ?? null, error: o.error?.slice(0, 500) ?? null, updated_at: at });
    },
    async get(memo: string): Promise<PlanReminder | undefined> {
      const r = await db('plan_reminders').where({ intent_memo: memo }).first();
      return r ? toReminder(r) : undefined;
    },
  };
}
export type ReminderStore = ReturnType<typeof createReminderStore>;
