import { anchorMemo, parseAnchorMemo } from '../../../domain/ledger/anchor-memo';

const root = '16692d473ae9cd468bed467add3c64b7b664277dd46bfed4b1c738b16debf05c';
const hourStart = new Date('2026-11-23T14:00:00.000Z');

describe('anchor memo', () => {
  it('is one short ASCII line naming the track, the hour and the root, and parses back', () => {
    const memo = anchorMemo({ track: 'grad_prob', hourStart, rootHex: root });
    expect(memo).toBe(`lpapi:ledger:v1:grad_prob:2026-11-23T14Z:${root}`);
    expect(Buffer.byteLength(memo)).toBe(105);
    expect(parseAnchorMemo(memo)).toEqual({ track: 'grad_prob', hourStart, rootHex: root });
    expect(parseAnchorMemo(anchorMemo({ track: 'composite', hourStart: new Date('2027-01-01T00:00:00Z'), rootHex: root }))).toEqual({
      track: 'composite',
      hourStart: new Date('2027-01-01T00:00:00Z'),
      rootHex: root,
    });
  });

  it('ignores other memos and malformed ones', () => {
    for (const memo of [
      'lp-8sJ3kq9XzVtR2mPqL4wYbN',
      `lpapi:ledger:v2:grad_prob:2026-11-23T14Z:${root}`,
      `lpapi:ledger:v1:grad_prob:2026-11-23T14Z:${root.toUpperCase()}`,
      `lpapi:ledger:v1:grad_prob:2026-11-23T14Z:${root.slice(1)}`,
      `lpapi:ledger:v1:grad_prob:2026-11-23T14:00Z:${root}`,
      `lpapi:ledger:v1:grad_prob:2026-02-30T14Z:${root}`,
      `lpapi:ledger:v1:grad_prob:2026-11-23T24Z:${root}`,
      `lpapi:ledger:v1:Grad:2026-11-23T14Z:${root}`,
      ` lpapi:ledger:v1:grad_prob:2026-11-23T14Z:${root}`,
      `lpapi:ledger:v1:grad_prob:2026-11-23T14Z:${root}\n`,
    ]) {
      expect([memo, parseAnchorMemo(memo)]).toEqual([memo, null]);
    }
  });

  it('refuses to anchor anything but a whole hour, a track name and a lowercase hex root', () => {
    expect(() => anchorMemo({ track: 'grad_prob', hourStart: new Date('2026-11-23T14:30:00Z'), rootHex: root })).toThrow(RangeError);
    expect(() => anchorMemo({ track: 'grad:prob', hourStart, rootHex: root })).toThrow(RangeError);
    expect(() => anchorMemo({ track: 'grad_prob', hourStart, rootHex: root.toUpperCase() })).toThrow(RangeError);
  });
});
