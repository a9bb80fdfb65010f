/**
 * Payment memos: the string a payer's transfer carries in an SPL Memo instruction, naming one intent.
 * `lp-` plus 22 base58 characters from 16 random bytes (128 bits): unguessable, so nobody can pay into (or
 * probe) someone else's intent by counting, and short enough for every wallet's memo field. The openapi
 * `Memo` pattern (`^[A-Za-z0-9_-]{8,64}$`) accepts older or hand-made memos too; only this shape is minted.
 */
export const MEMO_PREFIX = 'lp-';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const MEMO_BYTES = 16;
const MEMO_BODY_LENGTH = 22;
export const MINTED_MEMO_PATTERN = /^lp-[1-9A-HJ-NP-Za-km-z]{22}$/;

/** Builds a memo from caller-supplied random bytes (the caller owns randomness; this stays pure). */
export function memoFromRandomBytes(bytes: Uint8Array): string {
  if (bytes.length !== MEMO_BYTES) throw new RangeError(`a memo needs exactly ${MEMO_BYTES} random bytes`);
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let body = '';
  for (let i = 0; i < MEMO_BODY_LENGTH; i++) {
    body = BASE58[Number(n % 58n)] + body;
    n /= 58n;
  }
  return MEMO_PREFIX + body;
}

export const MEMO_RANDOM_BYTES = MEMO_BYTES;

/**
 * The intent a transaction pays, from all of its memo instructions. Exactly one distinct minted memo names the
 * intent; a transaction naming two different intents pays neither automatically (it would be guesswork which
 * intent the amount belongs to), and memos of other shapes (wallet notes, other services) are ignored.
 */
export function intentMemoOf(memos: readonly string[]): string | null {
  const ours = new Set(memos.map((m) => m.trim()).filter((m) => MINTED_MEMO_PATTERN.test(m)));
  return ours.size === 1 ? [...ours][0]! : null;
}
