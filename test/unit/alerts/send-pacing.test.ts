import { createSendPacer } from '../../../domain/alerts/send-pacing';

describe("the bot's send pacer (Telegram's limits)", () => {
  it('one message per chat per interval', () => {
    const p = createSendPacer({ perChatIntervalMs: 1000, perSecond: 30 });
    expect(p.chatReady(1, 0)).toBe(true);
    p.sending(1, 0);
    expect(p.chatReady(1, 999)).toBe(false);
    expect(p.chatWaitMs(1, 400)).toBe(600);
    expect(p.chatReady(1, 1000)).toBe(true);
    expect(p.chatReady(2, 1)).toBe(true);
  });

  it('at most perSecond in any rolling second overall', () => {
    const p = createSendPacer({ perChatIntervalMs: 1000, perSecond: 30 });
    for (let c = 0; c < 30; c++) p.sending(c, 100 + c);
    expect(p.globalWaitMs(200)).toBe(900);
    expect(p.globalWaitMs(1100)).toBe(0);
  });

  it('flood control pauses everything for retry_after, the later of two pauses winning', () => {
    const p = createSendPacer({ perChatIntervalMs: 1000, perSecond: 30 });
    p.flood(3, 0);
    p.flood(1, 500);
    expect(p.globalWaitMs(1000)).toBe(2000);
    expect(p.globalWaitMs(3000)).toBe(0);
  });

  it('a send counts from when it was answered, as Telegram received it somewhere in between', () => {
    const p = createSendPacer({ perChatIntervalMs: 1000, perSecond: 1 });
    const slot = p.sending(1, 0);
    p.settled(slot, 300);
    expect(p.globalWaitMs(1000)).toBe(300);
    expect(p.chatWaitMs(1, 1000)).toBe(300);
  });

  it('a restarted sender keeps the pace from the last sends it reads back', () => {
    const p = createSendPacer({ perChatIntervalMs: 1000, perSecond: 30 }, new Map([[7, 5000]]));
    expect(p.chatReady(7, 5500)).toBe(false);
    expect(p.chatReady(7, 6000)).toBe(true);
  });
});
