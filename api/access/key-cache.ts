import { hash } from 'node:crypto';
import type { ApiKeyRecord } from '../../db/access/api-key-store';

type Entry = { until: number; key: ApiKeyRecord | undefined };

// One-shot hashing: no Hash object per call (`crypto.hash`, Node ≥ 20.12: package.json's engines).
const digestOf = (plaintext: string): string => hash('sha256', plaintext, 'base64');

/** A key waiting for its intent's payment is looked up again after at most this long, so it works soon after payment. */
export const AWAITING_PAYMENT_TTL_MS = 1000;

/**
 * Reuses key lookups for `ttlMs` in this process, so an authenticated call costs one database round trip
 * (the quota count) instead of two. Unknown keys are remembered too, so repeated bad keys stay cheap; a plan
 * change or revocation shows within `ttlMs`, a key's activation by payment within a second. Bounded: the oldest
 * entries go first. Entries are found by a SHA-256 digest of the presented key, never by the key itself: the map's
 * string comparisons then see only digests, so how long a lookup takes tells nothing about how much of a guessed key
 * was right (the store compares its stored digest in constant time), and no plaintext key is held in memory here.
 */
export function createKeyCache(
  lookup: (plaintext: string) => Promise<ApiKeyRecord | undefined>,
  ttlMs: number,
  o: { maxEntries?: number; now?: () => number } = {},
) {
  const maxEntries = o.maxEntries ?? 10_000;
  const now = o.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<ApiKeyRecord | undefined>>();

  return {
    /** The remembered lookup of `plaintext` while it is fresh (`key` undefined: remembered as unknown), without waiting. */
    peek(plaintext: string): { key: ApiKeyRecord | undefined } | undefined {
      const hit = entries.get(digestOf(plaintext));
      return hit && now() < hit.until ? hit : undefined;
    },
    async get(plaintext: string): Promise<ApiKeyRecord | undefined> {
      const id = digestOf(plaintext);
      const hit = entries.get(id);
      if (hit && now() < hit.until) return hit.key;
      const pending = inflight.get(id);
      if (pending) return pending;
      const p = lookup(plaintext)
        .then((key) => {
          if (ttlMs > 0) {
            entries.delete(id);
            entries.set(id, { until: now() + (key?.awaitingPaymentOf ? Math.min(ttlMs, AWAITING_PAYMENT_TTL_MS) : ttlMs), key });
            if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
          }
          return key;
        })
        .finally(() => inflight.delete(id));
      inflight.set(id, p);
      return p;
    },
  };
}
export type KeyCache = ReturnType<typeof createKeyCache>;
