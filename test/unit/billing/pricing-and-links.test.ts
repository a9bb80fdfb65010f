import { randomBytes } from 'node:crypto';
import { intentMemoOf, memoFromRandomBytes, MEMO_RANDOM_BYTES, MINTED_MEMO_PATTERN } from '../../../domain/billing/payment-memo';
import { paymentLinks, solanaPayUrl } from '../../../domain/billing/payment-links';
import { lamportsToSol, lamportsToSolString, PLAN_DAYS, planPriceLamports } from '../../../domain/billing/pricing';

describe('plan prices (spec section 8)', () => {
  it('sells Builder at 0.4 SOL a month or 4 a year and Pro at 1 or 10, in integer lamports', () => {
    expect(planPriceLamports('builder', 'monthly')).toBe(400_000_000n);
    expect(planPriceLamports('builder', 'yearly')).toBe(4_000_000_000n);
    expect(planPriceLamports('pro', 'monthly')).toBe(1_000_000_000n);
    expect(planPriceLamports('pro', 'yearly')).toBe(10_000_000_000n);
    expect(PLAN_DAYS).toEqual({ monthly: 30, yearly: 365 });
  });

  it('prints SOL exactly, without exponent or float noise', () => {
    expect(lamportsToSolString(400_000_000n)).toBe('0.4');
    expect(lamportsToSolString(10_000_000_000n)).toBe('10');
    expect(lamportsToSolString(1_000_000_001n)).toBe('1.000000001');
    expect(lamportsToSolString(1n)).toBe('0.000000001');
    expect(lamportsToSolString(0n)).toBe('0');
    expect(lamportsToSol(300_000_000n)).toBe(0.3);
    expect(() => lamportsToSolString(-1n)).toThrow(RangeError);
  });
});

describe('payment memos', () => {
  it('are lp- plus 22 base58 characters and match the openapi Memo pattern', () => {
    const memos = new Set(Array.from({ length: 2000 }, () => memoFromRandomBytes(randomBytes(MEMO_RANDOM_BYTES))));
    expect(memos.size).toBe(2000);
    for (const m of memos) {
      expect(m).toMatch(MINTED_MEMO_PATTERN);
      expect(m).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    }
  });

  it('keep every random bit (distinct bytes give distinct memos, all-zero and all-one bytes included)', () => {
    expect(memoFromRandomBytes(new Uint8Array(16))).toBe('lp-1111111111111111111111');
    expect(memoFromRandomBytes(new Uint8Array(16).fill(255))).toMatch(MINTED_MEMO_PATTERN);
    const a = new Uint8Array(16);
    const b = new Uint8Array(16);
    b[0] = 1;
    expect(memoFromRandomBytes(a)).not.toBe(memoFromRandomBytes(b));
    expect(() => memoFromRandomBytes(new Uint8Array(8))).toThrow(RangeError);
  });

  it('attribute a transaction to an intent only when it names exactly one minted memo', () => {
    const m1 = memoFromRandomBytes(randomBytes(16));
    const m2 = memoFromRandomBytes(randomBytes(16));
    expect(intentMemoOf([m1])).toBe(m1);
    expect(intentMemoOf(['thanks!', m1, m1])).toBe(m1);
    expect(intentMemoOf([m1, m2])).toBeNull();
    expect(intentMemoOf(['hello', 'lp-short'])).toBeNull();
    expect(intentMemoOf([])).toBeNull();
  });
});

describe('payment links', () => {
  const o = {
    recipient: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
    amount: '0.4',
    memo: 'lp-2Ek1qLnVEvXpNHW4K1sPZF',
    label: 'Launchpad API',
    message: 'Builder monthly plan & more',
    payPageUrl: 'https://api.example.com/pay/lp-2Ek1qLnVEvXpNHW4K1sPZF',
    refUrl: 'https://api.example.com',
  };

  it('builds a Solana Pay transfer request with the exact amount and the memo', () => {
    const url = solanaPayUrl(o);
    expect(url).toBe(`solana:${o.recipient}?amount=0.4&label=Launchpad%20API&message=Builder%20monthly%20plan%20%26%20more&memo=${o.memo}`);
    const parsed = new URL(url);
    expect(parsed.protocol).toBe('solana:');
    expect(parsed.searchParams.get('memo')).toBe(o.memo);
    expect(parsed.searchParams.get('amount')).toBe('0.4');
  });

  it('asks for the holder token with spl-token, the amount in the token’s UI units', () => {
    const mint = 'So11111111111111111111111111111111111111112';
    const url = solanaPayUrl({ ...o, amount: '12500.5', splToken: mint });
    expect(url).toBe(
      `solana:${o.recipient}?amount=12500.5&spl-token=${mint}&label=Launchpad%20API&message=Builder%20monthly%20plan%20%26%20more&memo=${o.memo}`,
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get('spl-token')).toBe(mint);
    expect(parsed.searchParams.get('amount')).toBe('12500.5');
    expect(new URL(solanaPayUrl(o)).searchParams.has('spl-token')).toBe(false);
  });

  it('opens the pay page in each wallet app through its browse universal link', () => {
    const links = paymentLinks(o);
    for (const [wallet, host] of [
      ['phantom', 'phantom.app'],
      ['solflare', 'solflare.com'],
      ['backpack', 'backpack.app'],
    ] as const) {
      const u = new URL(links[wallet]);
      expect(u.host).toBe(host);
      expect(decodeURIComponent(u.pathname.split('/browse/')[1]!)).toBe(o.payPageUrl);
      expect(u.searchParams.get('ref')).toBe(o.refUrl);
    }
  });
});
