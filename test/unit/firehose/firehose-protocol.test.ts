import { eventFrame, gapFrame, parseSince, resumePlan } from '../../../domain/firehose/firehose-protocol';

test('an event frame splices the stored JSON payload in as is', () => {
  const f = eventFrame({ seq: 7, kind: 'score', at: '2026-11-24T06:00:00.000Z', payloadJson: '{"mint":"M","grad_prob":0.5}' });
  expect(JSON.parse(f)).toEqual({ type: 'event', seq: 7, kind: 'score', at: '2026-11-24T06:00:00.000Z', data: { mint: 'M', grad_prob: 0.5 } });
  expect(JSON.parse(gapFrame({ afterSeq: 3, resumeSeq: 9, reason: 'retention' }))).toEqual({
    type: 'gap',
    after_seq: 3,
    resume_seq: 9,
    reason: 'retention',
    resync: 'rest',
  });
});

test.each([
  [null, { ok: true, since: null }],
  ['0', { ok: true, since: 0 }],
  ['9007199254740991', { ok: true, since: 9007199254740991 }],
  ['9007199254740993', { ok: false }],
  ['-1', { ok: false }],
  ['1e3', { ok: false }],
  ['0x10', { ok: false }],
  [' 5', { ok: false }],
  ['', { ok: false }],
])('since %p', (raw, expected) => {
  expect(parseSince(raw)).toEqual(expected);
});

describe('resume plan', () => {
  const base = { ringFloor: 100, prunedThrough: 50, lastDrawn: 200, head: 198 };
  test.each([
    [null, { from: 'live' }],
    [150, { from: 'ring' }],
    [100, { from: 'ring' }],
    [99, { from: 'log' }],
    [50, { from: 'log' }],
    // Events 50 and below are pruned: even a ring that still holds them does not change the answer.
    [49, { from: 'gap', reason: 'retention' }],
    [200, { from: 'ring' }],
    [201, { from: 'gap', reason: 'unknown_seq' }],
  ])('since %p', (since, plan) => {
    expect(resumePlan({ ...base, since })).toEqual(plan);
  });
  test('the prune outranks the ring', () => {
    expect(resumePlan({ ...base, ringFloor: 10, since: 20 })).toEqual({ from: 'gap', reason: 'retention' });
  });
});
