/**
 * Telegram's delivery limits as a pacer: at most one message per chat every `perChatIntervalMs`, at most
 * `perSecond` in any rolling second overall, and nothing at all while flood control (a 429's retry_after) lasts.
 * A send counts from when it starts until it is settled, and then from its settling time: Telegram received it
 * somewhere in between, so counting from the later moment keeps the limits as Telegram measures them.
 * Pure: the sender asks it and tells it what it sent.
 */
export type Pacing = { perChatIntervalMs: number; perSecond: number };
export type SendSlot = { at: number; chatId: number };

export function createSendPacer(p: Pacing, lastSent: Map<number, number> = new Map(), recentSends: readonly number[] = []) {
  // A restarted sender counts what its predecessor sent in the last second too.
  let window: SendSlot[] = recentSends.map((at) => ({ at, chatId: 0 }));
  let pausedUntil = 0;
  return {
    /** Milliseconds until anything may be sent at all (flood pause or the overall rate), 0 when now. */
    globalWaitMs(nowMs: number): number {
      window = window.filter((s) => nowMs - s.at < 1000);
      const oldest = Math.min(...window.map((s) => s.at));
      const rateWait = window.length >= p.perSecond ? oldest + 1000 - nowMs : 0;
      return Math.max(0, pausedUntil - nowMs, rateWait);
    },
    /** May this chat get a message now? */
    chatReady(chatId: number, nowMs: number): boolean {
      const last = lastSent.get(chatId);
      return last === undefined || nowMs - last >= p.perChatIntervalMs;
    },
    chatWaitMs(chatId: number, nowMs: number): number {
      const last = lastSent.get(chatId);
      return last === undefined ? 0 : Math.max(0, last + p.perChatIntervalMs - nowMs);
    },
    /** A send is starting: it counts against both limits from now; pass the slot to `settled` when it is answered. */
    sending(chatId: number, nowMs: number): SendSlot {
      const slot = { at: nowMs, chatId };
      window.push(slot);
      lastSent.set(chatId, nowMs);
      return slot;
    },
    settled(slot: SendSlot, nowMs: number): void {
      slot.at = Math.max(slot.at, nowMs);
      lastSent.set(slot.chatId, Math.max(lastSent.get(slot.chatId) ?? 0, nowMs));
    },
    /** Telegram answered 429: nothing goes out for `retryAfterS`. */
    flood(retryAfterS: number, nowMs: number): void {
      pausedUntil = Math.max(pausedUntil, nowMs + retryAfterS * 1000);
    },
  };
}
export type SendPacer = ReturnType<typeof createSendPacer>;
