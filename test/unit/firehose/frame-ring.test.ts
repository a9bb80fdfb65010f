import { FrameRing, visibleTo } from '../../../domain/firehose/frame-ring';

const frame = (seq: number) => ({ seq, bytes: Buffer.from(String(seq)), ownerKeyId: null, facts: { kind: 'score', mints: [], wallet: null, gradProb: null } });
const seqs = (r: FrameRing, after: number) => r.after(after).map((f) => f.seq);

test('keeps every frame above its floor until full, in order', () => {
  const r = new FrameRing(4, 10);
  [11, 12, 14].forEach((s) => r.push(frame(s)));
  expect(r.floor).toBe(10);
  expect(seqs(r, 10)).toEqual([11, 12, 14]);
  expect(seqs(r, 12)).toEqual([14]);
  // A hole (a rolled-back append) is skipped, never waited for.
  expect(seqs(r, 13)).toEqual([14]);
  expect(seqs(r, 14)).toEqual([]);
});

test('evicts the oldest frame and raises its floor to it when full', () => {
  const r = new FrameRing(3, 0);
  for (let s = 1; s <= 7; s++) r.push(frame(s));
  expect(r.length).toBe(3);
  expect(r.floor).toBe(4);
  expect(seqs(r, 4)).toEqual([5, 6, 7]);
  expect(seqs(r, 5)).toEqual([6, 7]);
});

test('a ring of one still answers', () => {
  const r = new FrameRing(1, 5);
  r.push(frame(6));
  r.push(frame(9));
  expect(r.floor).toBe(6);
  expect(seqs(r, 6)).toEqual([9]);
  expect(() => new FrameRing(0, 0)).toThrow();
});

test("a key's own alert fires are visible to it, another key's never, everyone's to all", () => {
  expect(visibleTo({ ownerKeyId: null }, 7)).toBe(true);
  expect(visibleTo({ ownerKeyId: null }, undefined)).toBe(true);
  expect(visibleTo({ ownerKeyId: 7 }, 7)).toBe(true);
  expect(visibleTo({ ownerKeyId: 7 }, 8)).toBe(false);
  // Without keys (API_AUTH_ENABLED=false) a connection is nobody's: it sees no one's fires.
  expect(visibleTo({ ownerKeyId: 7 }, undefined)).toBe(false);
});
