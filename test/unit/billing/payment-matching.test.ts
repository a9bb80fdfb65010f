import { decidePayment, intentStatusAfter, type MemoTransfer } from '../../../domain/billing/payment-matching';
import { committedLamports, weekDueAt, weekStartUtc } from '../../../domain/billing/revenue-commitment';

const SOL = 1_000_000_000n;
const created = new Date('2026-11-23T10:00:00Z');
const terms = { amountUnits: SOL, expiresAt: new Date('2026-11-23T11:00:00Z') };
let slot = 300_000_000;
const tx = (sig: string, units: bigint, minutesAfterCreation: number, extra: Partial<MemoTransfer> = {}): MemoTransfer => ({
  signature: sig,
  slot: slot++,
  blockTime: new Date(created.getTime() + minutesAfterCreation * 60_000),
  seenAt: new Date(created.getTime() + minutesAfterCreation * 60_000 + 2000),
  units,
  ...extra,
});

describe('payment matching', () => {
  it('is pending with nothing received and expires only when the window has passed', () => {
    const d = decidePayment(terms, []);
    expect(d).toMatchObject({ status: 'pending', receivedUnits: 0n, shortfallUnits: SOL, completedBy: null });
    expect(intentStatusAfter(d, false)).toBe('pending');
    expect(intentStatusAfter(d, true)).toBe('expired');
  });

  it('is paid by one transfer of exactly the price', () => {
    const d = decidePayment(terms, [tx('A', SOL, 5)]);
    expect(d).toMatchObject({ status: 'paid', completedBy: 'A', excessUnits: 0n, shortfallUnits: 0n, counted: ['A'] });
  });

  it('keeps waiting on an underpayment, reporting what arrived, and adds partial payments up in chain order', () => {
    const first = tx('A', 600_000_000n, 5);
    const under = decidePayment(terms, [first]);
    expect(under).toMatchObject({ status: 'underpaid', receivedUnits: 600_000_000n, shortfallUnits: 400_000_000n, completedBy: null });
    expect(intentStatusAfter(under, true)).toBe('underpaid');
    const topUp = tx('B', 400_000_000n, 9);
    // Discovery order does not matter: the top-up completes the payment.
    expect(decidePayment(terms, [topUp, first])).toMatchObject({ status: 'paid', completedBy: 'B', counted: ['A', 'B'], excessUnits: 0n });
  });

  it('activates an overpayment and records the excess', () => {
    expect(decidePayment(terms, [tx('A', 1_250_000_000n, 5)])).toMatchObject({ status: 'paid', completedBy: 'A', excessUnits: 250_000_000n });
  });

  it('records a second payment with the same memo as excess, never as a second completion', () => {
    const d = decidePayment(terms, [tx('A', SOL, 5), tx('B', SOL, 6)]);
    expect(d).toMatchObject({ status: 'paid', completedBy: 'A', afterCompletion: ['B'], excessUnits: SOL, receivedUnits: 2n * SOL });
  });

  it('never counts a transfer confirmed after expiry, but reports it as received', () => {
    const d = decidePayment(terms, [tx('late', SOL, 61)]);
    expect(d).toMatchObject({ status: 'pending', late: ['late'], receivedUnits: SOL, countedUnits: 0n });
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
    expect(decidePayment(terms, [a, a, tx('Z', 0n, 6)])).toMatchObject({ status: 'underpaid', receivedUnits: 500_000_000n, counted: ['A'] });
  });
});

describe('payment matching in raw token units (a token-paid intent)', () => {
  // 12,500.5 tokens of a 6-decimals mint, the price of a plan paid with the token.
  const price = 12_500_500_000n;
  const tokenTerms = { amountUnits: price, expiresAt: terms.expiresAt };

  it('adds partial token payments up and completes on the one that reaches the price', () => {
    const d = decidePayment(tokenTerms, [tx('A', 10_000_000_000n, 3), tx('B', 2_500_500_000n, 7)]);
    expect(d).toMatchObject({ status: 'paid', completedBy: 'B', counted: ['A', 'B'], countedUnits: price, excessUnits: 0n, shortfallUnits: 0n });
  });

  it('stays underpaid one raw unit short: amounts are compared exactly, never as floats', () => {
    const d = decidePayment(tokenTerms, [tx('A', price - 1n, 3)]);
    expect(d).toMatchObject({ status: 'underpaid', shortfallUnits: 1n, completedBy: null });
    expect(intentStatusAfter(d, true)).toBe('underpaid');
  });

  it('records tokens beyond the price and a second payment as excess, and never counts a late one', () => {
    const d = decidePayment(tokenTerms, [tx('A', price + 500_000n, 3), tx('B', price, 8), tx('late', price, 75)]);
    expect(d).toMatchObject({
      status: 'paid',
      completedBy: 'A',
      afterCompletion: ['B'],
      late: ['late'],
      excessUnits: price + 500_000n,
      receivedUnits: 3n * price + 500_000n,
    });
  });

  it('keeps u64 amounts past 2^53 exact', () => {
    const huge = 18_000_000_000_000_000_001n;
    expect(decidePayment({ amountUnits: huge, expiresAt: terms.expiresAt }, [tx('A', huge - 1n, 1), tx('B', 1n, 2)])).toMatchObject({
      status: 'paid',
      completedBy: 'B',
      countedUnits: huge,
    });
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
