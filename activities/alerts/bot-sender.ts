import { GrammyError } from 'grammy';
import { BotRecipientRefused, type MessagingBot } from '../../clients/telegram/telegram-bot';
import type { BotChatStore } from '../../db/alerts/bot-chat-store';
import type { BotSendStore, PendingSend } from '../../db/alerts/bot-send-store';
import { currentActivity } from '../activity-heartbeat';
import { createSendPacer, type Pacing, type SendPacer, type SendSlot } from '../../domain/alerts/send-pacing';

export type BotSenderDeps = {
  sendStore: BotSendStore;
  chatStore: Pick<BotChatStore, 'markBlocked'>;
  /** Absent when no bot token is configured: the queue then waits, nothing is dropped. */
  bot: MessagingBot | null;
  pacing: Pacing;
  /** Queues new composite signals for subscribed chats (signal-relay-store.ts); run about once a second while draining. */
  relaySignals?: (now: Date) => Promise<number>;
  now: () => Date;
};

export type DrainResult = { sent: number; refused: number; flooded: number; failed: number };

const IDLE_POLL_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Drains the bot's send queue for up to `maxMs` within Telegram's limits, then returns (its workflow calls it again).
 * Per chat only the head of its queue is sent, one at a time, so each chat gets its messages in order; a 429 pauses
 * every send for its retry_after and the message stays at the head; a 403/400 (blocked, chat gone) records the
 * block and refuses the chat's queue; other failures leave the message at the head for the next pass. A message is
 * marked sent right after Telegram accepts it; only a crash between the two can send one twice (at-least-once).
 */
export function createBotSender(d: BotSenderDeps) {
  let pacer: SendPacer | undefined;

  async function sendOne(s: PendingSend, slot: SendSlot, p: SendPacer, r: DrainResult): Promise<void> {
    try {
      const { messageId } = await d.bot!.send({ chatId: s.chatId, text: s.text }).finally(() => p.settled(slot, d.now().getTime()));
      await d.sendStore.markSent(s.id, messageId, d.now());
      r.sent++;
    } catch (e) {
      if (e instanceof BotRecipientRefused) {
        await d.chatStore.markBlocked(s.chatId, d.now(), e.message);
        r.refused++;
      } else if (e instanceof GrammyError && e.error_code === 429) {
        p.flood(e.parameters.retry_after ?? 1, d.now().getTime());
        await d.sendStore.markAttemptFailed(s.id, e.description);
        r.flooded++;
      } else {
        await d.sendStore.markAttemptFailed(s.id, String(e instanceof Error ? e.message : e));
        r.failed++;
      }
    }
  }

  return {
    async drainBotSends(input: { maxMs: number }): Promise<DrainResult> {
      const r: DrainResult = { sent: 0, refused: 0, flooded: 0, failed: 0 };
      if (!d.bot) return r;
      // The activity's cancellation (worker shutdown); none when called outside an activity (scripts, the bench).
      const ctx = currentActivity();
      const nowMs = d.now().getTime();
      pacer ??= createSendPacer(d.pacing, await d.sendStore.lastSentAt(new Date(nowMs - 60_000)), await d.sendStore.sentSince(new Date(nowMs - 1000)));
      const p = pacer;
      const until = Date.now() + input.maxMs;
      let relayedAt = 0;
      while (Date.now() < until && !ctx?.cancellationSignal.aborted) {
        ctx?.heartbeat(r);
        if (d.relaySignals && Date.now() - relayedAt >= 1000) {
          relayedAt = Date.now();
          await d.relaySignals(d.now());
        }
        const nowMs = d.now().getTime();
        const wait = p.globalWaitMs(nowMs);
        if (wait > 0) {
          await sleep(Math.min(wait, 250));
          continue;
        }
        const heads = await d.sendStore.heads(500, []);
        const ready = heads.filter((h) => p.chatReady(h.chatId, nowMs));
        if (ready.length === 0) {
          const next = heads.length ? Math.min(...heads.map((h) => p.chatWaitMs(h.chatId, nowMs))) : IDLE_POLL_MS;
          await sleep(Math.max(10, Math.min(next, IDLE_POLL_MS)));
          continue;
        }
        // As many as the overall rate allows this instant; each chat at most once (heads are one per chat).
        const batch: { h: PendingSend; slot: SendSlot }[] = [];
        for (const h of ready) {
          if (p.globalWaitMs(nowMs) > 0 || batch.length >= d.pacing.perSecond) break;
          batch.push({ h, slot: p.sending(h.chatId, nowMs) });
        }
        await Promise.all(batch.map(({ h, slot }) => sendOne(h, slot, p, r)));
      }
      return r;
    },
  };
}
export type BotSenderActivities = ReturnType<typeof createBotSender>;
