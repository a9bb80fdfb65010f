import bs58 from 'bs58';
import { WALLET_PREFIX_LENGTH } from '../launch/mint-signals';

/**
 * Wallet keys and what may be shown of them. The index stores every wallet under its full base58 address; the
 * spec matches wallets "by their first 12 characters", so a 12-character prefix is also a key. Two rules follow:
 * - a prefix names a SET of wallets: a prefix shared by two indexed wallets answers with both, never a silent pick
 *   (12 base58 characters are 70 bits; only vanity-ground or adversarial addresses collide, but they can);
 * - a full address is an exact key: it never answers with another wallet that merely shares its prefix, because
 *   that would hand the caller someone else's record under their own address.
 * Wallet addresses are what this service knows that others don't: a response shows a full address only when the
 * caller sent that very address (`revealAddress`); everywhere else a wallet is its 12-character prefix.
 */
export { WALLET_PREFIX_LENGTH };

/** The base58 alphabet (Bitcoin's, which Solana uses): no 0, O, I or l. */
const BASE58_CHARS = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** An ed25519 public key is 32 bytes: 32 to 44 base58 characters (openapi `SolanaAddress`). */
export const ADDRESS_MIN_LENGTH = 32;
export const ADDRESS_MAX_LENGTH = 44;
const PUBLIC_KEY_BYTES = 32;

export type WalletKey = { kind: 'address'; address: string; prefix: string } | { kind: 'prefix'; prefix: string };
export type WalletKeyError = { kind: 'invalid'; reason: 'not_base58' | 'bad_length' | 'not_32_bytes' };

/**
 * A full address: base58, 32–44 characters, and decoding to exactly 32 bytes. The pattern alone admits strings
 * that decode to 24–33 bytes, which are no key at all (the route answers 422, not 404).
 */
export function parseWalletAddress(s: string): WalletKey | WalletKeyError {
  if (!BASE58_CHARS.test(s)) return { kind: 'invalid', reason: 'not_base58' };
  if (s.length < ADDRESS_MIN_LENGTH || s.length > ADDRESS_MAX_LENGTH) return { kind: 'invalid', reason: 'bad_length' };
  if (bs58.decode(s).length !== PUBLIC_KEY_BYTES) return { kind: 'invalid', reason: 'not_32_bytes' };
  return { kind: 'address', address: s, prefix: s.slice(0, WALLET_PREFIX_LENGTH) };
}

/** A prefix key: exactly 12 base58 characters (any such string is some addresses' prefix). */
export function parseWalletPrefix(s: string): WalletKey | WalletKeyError {
  if (!BASE58_CHARS.test(s)) return { kind: 'invalid', reason: 'not_base58' };
  if (s.length !== WALLET_PREFIX_LENGTH) return { kind: 'invalid', reason: 'bad_length' };
  return { kind: 'prefix', prefix: s };
}

/** Either key, told apart by length: 12 characters is a prefix, 32–44 a full address. */
export function parseWalletKey(s: string): WalletKey | WalletKeyError {
  return s.length === WALLET_PREFIX_LENGTH ? parseWalletPrefix(s) : parseWalletAddress(s);
}

/** What a response may show of a wallet the caller did not name in full. */
export const redactWallet = (address: string): string => address.slice(0, WALLET_PREFIX_LENGTH);

/**
 * The addresses a prefix covers, as a half-open range [from, to) in byte order ("C" collation): every base58
 * character sorts below `{`, so `prefix + '{'` bounds exactly the strings that start with the prefix. With the
 * wallet column in COLLATE "C", the primary-key btree serves prefix lookups as a range scan, no second index.
 */
export function prefixRange(prefix: string): { from: string; to: string } {
  return { from: prefix, to: `${prefix}{` };
}

/**
 * The wallets a key selects among candidates the store found for its prefix: all of them for a prefix
 * (ordered by sample size, then address, so the answer is stable), the exact one or none for an address.
 */
export function selectByKey<T extends { wallet: string }>(key: WalletKey, candidates: readonly T[], sampleSize: (t: T) => number): T[] {
  if (key.kind === 'address') return candidates.filter((c) => c.wallet === key.address);
  return candidates
    .filter((c) => c.wallet.startsWith(key.prefix))
    .sort((a, b) => sampleSize(b) - sampleSize(a) || (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0));
}
