import { decidePayment, intentStatusAfter, type MemoTransfer } from '../../domain/billing/payment-matching';
import { committedLamports, weekDueAt, weekStartUtc } from '../../domain/billing/revenue-commitment';

const SOL = 1_000_000_000n;
const created = new Date('2026-11-23T10:00:00Z');
const terms = { amountLamports: SOL, expiresAt: new Date('2026-11-23T11:00:00Z') };
let slot = 300_000_000;
const tx = (sig: string, lamports: bigint, minutesAfterCreation: number, extra: Partial<MemoTransfer> = {}): MemoTransfer => ({
  signature: sig,
  slot: slot++,
  blockTime: new Date(created.getTime() + minutesAfterCreation * 60_000),
  seenAt: new Date(created.getTime() + minutesAfterCreation * 60_000 + 2000),
  lamports,
  ...extra,
});

describe('payment matching', () => {
  it('is pending with nothing received and expires only when the window has passed', () => {
    const d = decidePayment(terms, []);
    expect(d).toMatchObject({ status: 'pending', receivedLamports: 0n, shortfallLamports: SOL, completedBy: null });
    expect(intentStatusAfter(d, false)).toBe('pending');
    expect(intentStatusAfter(d, true)).toBe('expired');
  });

  it('is paid by one transfer of exactly the price', () => {
    const d = decidePayment(terms, [tx('A', SOL, 5)]);
    expect(d).toMatchObject({ status: 'paid', completedBy: 'A', excessLamports: 0n, shortfallLamports: 0n, counted: ['A'] });
  });

  it('keeps waiting on an underpayment, reporting what arrived, and adds partial payments up in chain order', () => {
    const first = tx('A', 600_000_000n, 5);
    const under = decidePayment(terms, [first]);
    expect(under).toMatchObject({ status: 'underpaid', receivedLamports: 600_000_000n, shortfallLamports: 400_000_000n, completedBy: null });
    expect(intentStatusAfter(under, true)).toBe('underpaid');
    const topUp = tx('B', 400_000_000n, 9);
    // Discovery order does not matter: the top-up completes the payment.
    expect(decidePayment(terms, [topUp, first])).toMatchObject({ status: 'paid', completedBy: 'B', counted: ['A', 'B'], excessLamports: 0n });
  });

  it('activates an overpayment and records the excess', () => {
    expect(decidePayment(terms, [tx('A', 1_250_000_000n, 5)])).toMatchObject({ status: 'paid', completedBy: 'A', excessLamports: 250_000_000n });
  });

  it('records a second payment with the same memo as excess, never as a second completion', () => {
    const d = decidePayment(terms, [tx('A', SOL, 5), tx('B', SOL, 6)]);
    expect(d).toMatchObject({ status: 'paid', completedBy: 'A', afterCompletion: ['B'], excessLamports: SOL, receivedLamports: 2n * SOL });
  });

  it('never counts a transfer confirmed after expiry, but reports it as received', () => {
    const d = decidePayment(terms, [tx('late', SOL, 61)]);
    expect(d).toMatchObject({ status: 'pending', late: ['late'], receivedLamports: SOL, countedLamports: 0n });
    expect(intentStatusAfter(d, true)).toBe('expired');
  });

  it('uses the time first seen when the node gives no block time', () => {
    const seenLate = tx('X', SOL, 0, { blockTime: null, seenAt: new Date('2026-11-23T11:00:01Z') });
    expect(decidePayment(terms, [seenLate]).late).toEqual(['X']);
    const seenInTime = tx('Y', SOL, 0, { blockTime: null, seenAt: new Date('2026-11-23T10:59:59Z') });
    expect(decidePayment(terms, [seenInTime]).status).toBe('paid');
  });

  it('counts a transaction once even when the scan reports it twice, and ignores zero transfers', () => {
    const a = tx('A', 500_000_000n, 5);
    expect(decidePayment(terms, [a, a, tx('Z', 0n, 6)])).toMatchObject({ status: 'underpaid', receivedLamports: 500_000_000n, counted: ['A'] });
  });
});

describe('weekly revenue commitments', () => {
  it('pools by UTC week starting Monday and falls due when the week ends', () => {
    expect(weekStartUtc(new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23'); // a Monday
    expect(weekStartUtc(new Date('2026-11-29T23:59:59Z'))).toBe('2026-11-23'); // the Sunday after
    expect(weekStartUtc(new Date('2026-11-22T23:59:59Z'))).toBe('2026-11-16');
    expect(weekDueAt('2026-11-23').toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('commits a share in basis points, rounding down', () => {
    expect(committedLamports(1_000_000_000n, 2500)).toBe(250_000_000n);
    expect(committedLamports(3n, 5000)).toBe(1n);
    expect(committedLamports(400_000_000n, 0)).toBe(0n);
    expect(() => committedLamports(1n, 10_001)).toThrow(RangeError);
  });
});
