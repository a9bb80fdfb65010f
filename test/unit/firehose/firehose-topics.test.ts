import { parseClientMessage } from '../../../domain/firehose/firehose-protocol';
import { compileSubscription, frameFacts, parseSubscription, parseTopicsParam, TOPIC_LIMITS } from '../../../domain/firehose/firehose-topics';

const M1 = 'So11111111111111111111111111111111111111112';
const M2 = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const W1 = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

const score = (mint: string, gp: number) => frameFacts('score', { mint, age_bucket: 30, grad_prob: gp });
const buy = (mint: string, wallet: string) => frameFacts('buy', { mint, wallet, sol_lamports: 1 });
const sub = (raw: unknown) => {
  const p = parseSubscription(raw);
  if (!p.ok) throw new Error(p.error);
  return compileSubscription(p.subscription);
};

describe('frame facts', () => {
  it('take the mint, wallet and grad_prob each kind carries', () => {
    expect(score(M1, 0.7)).toEqual({ kind: 'score', mints: [M1], wallet: null, gradProb: 0.7 });
    expect(buy(M1, W1)).toEqual({ kind: 'buy', mints: [M1], wallet: W1, gradProb: null });
    expect(frameFacts('launch', { mint: M1, creator: W1 })).toMatchObject({ mints: [M1], wallet: W1 });
    expect(frameFacts('signal', { tier: 'ACT', signal: { mint: M2, features: { gp_60: 0.4 } } })).toEqual({
      kind: 'signal',
      mints: [M2],
      wallet: null,
      gradProb: 0.4,
    });
    // A membership change concerns every mint that entered or left; its grad_prob is the best that entered.
    expect(
      frameFacts('live', {
        entered: [
          { mint: M1, rank: 1, grad_prob: 0.2 },
          { mint: M2, rank: 2, grad_prob: null },
        ],
        left: [W1],
      }),
    ).toEqual({
      kind: 'live',
      mints: [M1, M2, W1],
      wallet: null,
      gradProb: 0.2,
    });
    expect(frameFacts('graduation', { mint: M1, stage: 'completed' })).toMatchObject({ mints: [M1], wallet: null, gradProb: null });
  });
});

describe('a subscription', () => {
  it('absent: the four kinds the stream always had, never the opt-in ones', () => {
    const m = compileSubscription(null);
    expect(['score', 'live', 'signal', 'alert'].map((k) => m({ kind: k, mints: [], wallet: null, gradProb: null }))).toEqual([true, true, true, true]);
    expect(['launch', 'graduation', 'buy'].map((k) => m({ kind: k, mints: [], wallet: null, gradProb: null }))).toEqual([false, false, false]);
  });

  it('by kind, mint, wallet and threshold: every field a topic sets must hold', () => {
    expect(sub([{ kinds: ['score'] }])(score(M1, 0.1))).toBe(true);
    expect(sub([{ kinds: ['score'] }])(buy(M1, W1))).toBe(false);
    expect(sub([{ mints: [M1] }])(buy(M1, W1))).toBe(true);
    expect(sub([{ mints: [M1] }])(score(M2, 0.9))).toBe(false);
    expect(sub([{ wallets: [W1] }])(buy(M2, W1))).toBe(true);
    expect(sub([{ wallets: [W1] }])(score(M2, 0.9))).toBe(false);
    expect(sub([{ min_grad_prob: 0.5 }])(score(M1, 0.5))).toBe(true);
    expect(sub([{ min_grad_prob: 0.5 }])(score(M1, 0.49))).toBe(false);
    // An event without a grad_prob never passes a threshold.
    expect(sub([{ min_grad_prob: 0 }])(buy(M1, W1))).toBe(false);
    expect(sub([{ kinds: ['score'], mints: [M1], min_grad_prob: 0.3 }])(score(M1, 0.2))).toBe(false);
  });

  it('of several topics delivers what any of them matches', () => {
    const m = sub([{ kinds: ['signal'] }, { kinds: ['buy'], wallets: [W1] }, { mints: [M2] }]);
    expect(m(buy(M1, W1))).toBe(true);
    expect(m(buy(M1, M2))).toBe(false);
    expect(m(score(M2, 0.01))).toBe(true);
    expect(m(frameFacts('signal', { signal: { mint: M1 } }))).toBe(true);
  });
});

describe('parsing', () => {
  it('accepts topics as sent and keeps them as given (deduplicated)', () => {
    expect(parseSubscription([{ kinds: ['score', 'score'], mints: [M1, M1], min_grad_prob: 0.7 }])).toEqual({
      ok: true,
      subscription: [{ kinds: ['score'], mints: [M1], min_grad_prob: 0.7 }],
    });
    expect(parseSubscription(null)).toEqual({ ok: true, subscription: null });
    expect(parseTopicsParam(null)).toEqual({ ok: true, subscription: null });
    expect(parseTopicsParam(JSON.stringify([{ wallets: [W1] }]))).toEqual({ ok: true, subscription: [{ wallets: [W1] }] });
  });

  it.each([
    ['not an array', { kinds: ['score'] }],
    ['empty', []],
    ['too many topics', Array.from({ length: TOPIC_LIMITS.topics + 1 }, () => ({}))],
    ['an unknown kind', [{ kinds: ['trade'] }]],
    ['an unknown field', [{ kind: 'score' }]],
    ['a malformed address', [{ mints: ['not-an-address'] }]],
    ['too many addresses', [{ wallets: Array.from({ length: TOPIC_LIMITS.addresses + 1 }, (_, i) => `${W1.slice(0, 40)}${String(i).padStart(4, '1')}`) }]],
    ['a threshold out of range', [{ min_grad_prob: 1.5 }]],
    ['a threshold that is not a number', [{ min_grad_prob: '0.5' }]],
  ])('refuses %s', (_what, raw) => {
    expect(parseSubscription(raw).ok).toBe(false);
  });

  it('refuses a topics parameter that is not JSON or is null', () => {
    expect(parseTopicsParam('[{')).toMatchObject({ ok: false });
    expect(parseTopicsParam('null')).toMatchObject({ ok: false });
  });

  it('reads the one client message, and says what is wrong with any other', () => {
    expect(parseClientMessage(JSON.stringify({ type: 'subscribe', topics: [{ kinds: ['buy'] }] }))).toEqual({ ok: true, subscription: [{ kinds: ['buy'] }] });
    expect(parseClientMessage(JSON.stringify({ type: 'subscribe', topics: null }))).toEqual({ ok: true, subscription: null });
    expect(parseClientMessage('hello')).toMatchObject({ ok: false, error: 'invalid_message' });
    expect(parseClientMessage(JSON.stringify({ type: 'unsubscribe' }))).toMatchObject({ ok: false, error: 'invalid_message' });
    expect(parseClientMessage(JSON.stringify({ type: 'subscribe', topics: [{ kinds: [] }] }))).toMatchObject({ ok: false, error: 'invalid_subscription' });
  });
});
