import bs58 from 'bs58';
import {
  parseWalletAddress,
  parseWalletKey,
  parseWalletPrefix,
  prefixRange,
  redactWallet,
  selectByKey,
  WALLET_PREFIX_LENGTH,
} from '../../../domain/wallets/wallet-address';

// Real 32-byte keys: the launchpad program and the system program (32 zero bytes, all '1's).
const PROGRAM = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
const SYSTEM = '11111111111111111111111111111111';
/** Two distinct valid addresses sharing their first 12 characters: the same key with only the last byte changed. */
const key = (last: number) => bs58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : 77)));
const TWIN_A = key(1);
const TWIN_B = key(2);

describe('wallet address and prefix keys', () => {
  it('accepts a full address that decodes to 32 bytes, and names its 12-character prefix', () => {
    expect(parseWalletAddress(PROGRAM)).toEqual({ kind: 'address', address: PROGRAM, prefix: '6EF8rrecthR5' });
    expect(parseWalletAddress(SYSTEM)).toEqual({ kind: 'address', address: SYSTEM, prefix: '111111111111' });
  });

  it('refuses characters outside base58, wrong lengths, and pattern-valid strings that are no 32-byte key', () => {
    expect(parseWalletAddress(PROGRAM.replace('6', '0'))).toEqual({ kind: 'invalid', reason: 'not_base58' });
    expect(parseWalletAddress(PROGRAM.replace('E', 'O'))).toEqual({ kind: 'invalid', reason: 'not_base58' });
    expect(parseWalletAddress(PROGRAM.replace('F', 'I'))).toEqual({ kind: 'invalid', reason: 'not_base58' });
    expect(parseWalletAddress(PROGRAM.replace('r', 'l'))).toEqual({ kind: 'invalid', reason: 'not_base58' });
    expect(parseWalletAddress('')).toEqual({ kind: 'invalid', reason: 'not_base58' });
    expect(parseWalletAddress(PROGRAM.slice(0, 31))).toEqual({ kind: 'invalid', reason: 'bad_length' });
    expect(parseWalletAddress(`${PROGRAM}11`)).toEqual({ kind: 'invalid', reason: 'bad_length' });
    // openapi's pattern admits both; 44 'z' is above 2^256 (33 bytes), 32 'z' below 2^192 (24 bytes).
    expect(parseWalletAddress('z'.repeat(44))).toEqual({ kind: 'invalid', reason: 'not_32_bytes' });
    expect(parseWalletAddress('z'.repeat(32))).toEqual({ kind: 'invalid', reason: 'not_32_bytes' });
  });

  it('takes exactly 12 base58 characters as a prefix, and tells the two keys apart by length', () => {
    expect(WALLET_PREFIX_LENGTH).toBe(12);
    expect(parseWalletPrefix('6EF8rrecthR5')).toEqual({ kind: 'prefix', prefix: '6EF8rrecthR5' });
    expect(parseWalletPrefix('6EF8rrecthR')).toEqual({ kind: 'invalid', reason: 'bad_length' });
    expect(parseWalletPrefix('6EF8rrecthR5o')).toEqual({ kind: 'invalid', reason: 'bad_length' });
    expect(parseWalletPrefix('6EF8rrecthR0')).toEqual({ kind: 'invalid', reason: 'not_base58' });
    expect(parseWalletKey('6EF8rrecthR5')).toEqual({ kind: 'prefix', prefix: '6EF8rrecthR5' });
    expect(parseWalletKey(PROGRAM)).toEqual({ kind: 'address', address: PROGRAM, prefix: '6EF8rrecthR5' });
    expect(parseWalletKey('6EF8rrecthR5x')).toEqual({ kind: 'invalid', reason: 'bad_length' });
  });

  it('redacts to the 12-character prefix', () => {
    expect(redactWallet(PROGRAM)).toBe('6EF8rrecthR5');
  });

  it('bounds exactly the addresses with a prefix in byte order, so one C-collated btree serves prefix lookups', () => {
    const { from, to } = prefixRange('6EF8rrecthR5');
    expect({ from, to }).toEqual({ from: '6EF8rrecthR5', to: '6EF8rrecthR5{' });
    const inRange = (s: string) => s >= from && s < to;
    expect(inRange(PROGRAM)).toBe(true);
    expect(inRange('6EF8rrecthR5zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBe(true);
    expect(inRange('6EF8rrecthR51111111111111111111111111111111')).toBe(true);
    expect(inRange('6EF8rrecthR4zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBe(false);
    expect(inRange('6EF8rrecthR6111111111111111111111111111111')).toBe(false);
    expect(inRange('6EF8rrecthRZzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBe(false);
  });
});

describe('selecting wallets by key', () => {
  const rows = [
    { wallet: TWIN_A, total: 3 },
    { wallet: TWIN_B, total: 9 },
    { wallet: PROGRAM, total: 1 },
  ];
  const n = (r: { total: number }) => r.total;

  it('has two valid addresses that share a prefix', () => {
    expect(TWIN_A).not.toBe(TWIN_B);
    expect(redactWallet(TWIN_A)).toBe(redactWallet(TWIN_B));
    expect(parseWalletAddress(TWIN_A).kind).toBe('address');
    expect(parseWalletAddress(TWIN_B).kind).toBe('address');
  });

  it('answers a shared prefix with both wallets, larger sample first, never a silent pick', () => {
    const got = selectByKey({ kind: 'prefix', prefix: redactWallet(TWIN_A) }, rows, n);
    expect(got.map((r) => r.wallet)).toEqual([TWIN_B, TWIN_A]);
  });

  it('orders equal samples by address, so the answer is stable', () => {
    const tied = [
      { wallet: TWIN_B, total: 4 },
      { wallet: TWIN_A, total: 4 },
    ];
    expect(selectByKey({ kind: 'prefix', prefix: redactWallet(TWIN_A) }, tied, n).map((r) => r.wallet)).toEqual([TWIN_A, TWIN_B].sort());
  });

  it('answers a full address with that wallet only, never its prefix twin', () => {
    expect(selectByKey({ kind: 'address', address: TWIN_A, prefix: redactWallet(TWIN_A) }, rows, n)).toEqual([{ wallet: TWIN_A, total: 3 }]);
    const onlyTwin = rows.filter((r) => r.wallet !== TWIN_A);
    expect(selectByKey({ kind: 'address', address: TWIN_A, prefix: redactWallet(TWIN_A) }, onlyTwin, n)).toEqual([]);
  });
});
