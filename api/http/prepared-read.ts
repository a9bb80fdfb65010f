import { prepareJson, type PreparedBody } from './prepared-body';

/**
 * A slowly changing read served from memory: `build` runs at most once per `ttlMs` however many requests arrive
 * (one in flight at a time, shared by every request that waits for it), and its body is serialised once per build.
 * A failed build is not remembered: the requests waiting for it get its error (the route's documented 503), the
 * next request tries again. With `ttlMs` 0 every request builds (sharing only a build already in flight).
 */
export function createPreparedRead(build: () => Promise<unknown>, o: { ttlMs: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  let current: { at: number; body: PreparedBody } | undefined;
  let inflight: Promise<PreparedBody> | undefined;
  const fresh = () => (current && now() - current.at < o.ttlMs ? current.body : undefined);
  return {
    get(): Promise<PreparedBody> {
      const held = fresh();
      if (held) return Promise.resolve(held);
      if (!inflight) {
        const at = now();
        inflight = build()
          .then((value) => (current = { at, body: prepareJson(value) }).body)
          .finally(() => (inflight = undefined));
      }
      return inflight;
    },
    /** The body in memory while it is fresh, without building. */
    peek: (): PreparedBody | undefined => fresh(),
  };
}
export type PreparedRead = ReturnType<typeof createPreparedRead>;
