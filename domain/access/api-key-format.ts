import { createHash, timingSafeEqual } from 'node:crypto';
import bs58 from 'bs58';

/**
 * API keys look like `lp_live_<id>_<secret>`: `lp_live_<id>` is the visible prefix (10 base58 characters of
 * id, shown in place of the key and used to find its row), the secret is 32 random bytes in base58. Only the
 * SHA-256 of the whole key is stored: with 256 random bits a fast hash is enough (no password stretching).
 */
export const KEY_TAG = 'lp_live_';
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ID_LEN = 10;
const SECRET_BYTES = 32;
const KEY_RE = /^(lp_live_[1-9A-HJ-NP-Za-km-z]{10})_([1-9A-HJ-NP-Za-km-z]{40,50})$/;
/** Longest plaintext a well-formed key can have; anything longer is rejected before any work. */
export const MAX_KEY_LENGTH = KEY_TAG.length + ID_LEN + 1 + 50;

export type RandomBytes = (n: number) => Uint8Array;
export type NewApiKey = { prefix: string; plaintext: string; hash: Uint8Array };

function randomId(random: RandomBytes): string {
  let out = '';
  while (out.length < ID_LEN) {
    // Rejection sampling keeps every character equally likely (232 = 4 × 58).
    for (const b of random(ID_LEN * 2)) if (b < 232 && out.length < ID_LEN) out += B58[b % 58];
  }
  return out;
}

export function generateApiKey(random: RandomBytes): NewApiKey {
  const prefix = KEY_TAG + randomId(random);
  const secret = random(SECRET_BYTES);
  if (secret.length !== SECRET_BYTES) throw new Error('random source returned too few bytes');
  const plaintext = `${prefix}_${bs58.encode(secret)}`;
  return { prefix, plaintext, hash: hashApiKey(plaintext) };
}

/** The visible prefix of a well-formed key, or null for anything that cannot be one of ours. */
export function parseApiKey(plaintext: string): { prefix: string } | null {
  if (plaintext.length > MAX_KEY_LENGTH) return null;
  const m = KEY_RE.exec(plaintext);
  if (!m) return null;
  const secret = bs58.decode(m[2]!);
  return secret.length === SECRET_BYTES ? { prefix: m[1]! } : null;
}

export function hashApiKey(plaintext: string): Uint8Array {
  return createHash('sha256').update(plaintext, 'utf8').digest();
}

/** Constant-time equality of two digests, so timing never tells how much of a guess was right. */
export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
