/**
 * A small per-process cache for slowly changing reads (leaderboards, the published score version): an answer is
 * reused for `ttlMs`, and while one read of a key is in flight every other request for that key waits on it
 * (single flight), so a burst costs one query. A failed read is not kept. At most `maxKeys` answers are held; the
 * oldest is dropped first. Kept in one file so a shared mechanism can replace it.
 */
export function createReadCache<T>(o: { ttlMs: number; maxKeys: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  const held = new Map<string, { at: number; value: T }>();
  const inflight = new Map<string, Promise<{ at: number; value: T }>>();

  return {
    /** The cached answer for `key` with the time it was read, or a fresh read shared by every concurrent caller. */
    async get(key: string, read: () => Promise<T>): Promise<{ at: number; value: T }> {
      const hit = held.get(key);
      if (hit && now() - hit.at < o.ttlMs) return hit;
      let pending = inflight.get(key);
      if (!pending) {
        const at = now();
        pending = read()
          .then((value) => {
            const entry = { at, value };
            held.delete(key);
            held.set(key, entry);
            while (held.size > o.maxKeys) held.delete(held.keys().next().value as string);
            return entry;
          })
          .finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
  };
}
export type ReadCache<T> = ReturnType<typeof createReadCache<T>>;
