import { dependencyFailure } from './dependency-errors';

/** A dependency's state as /api/health shows it. `error` never names hosts or ports. */
export type ProbeState = { state: 'up' | 'down'; checkedAt: Date; error: string | null };

/** `p`, or a rejection after `ms` (the work itself goes on; its result is dropped). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)));
  p.catch(() => undefined);
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A reason safe for a public answer: the failure's kind, never its message (which may carry addresses). */
export const publicReason = (e: unknown): string =>
  dependencyFailure(e)?.reason ?? (e instanceof Error && /took longer than/.test(e.message) ? 'timeout' : 'unreachable');

/**
 * Whether a dependency answers, probed at most every `ttlMs` (whoever asks meanwhile gets the remembered
 * answer; concurrent askers share one probe) and within `timeoutMs`. A request that ran into the dependency
 * reports it down at once, so health does not wait a probe interval to notice an outage requests already see.
 */
export function createDependencyProbe(probe: () => Promise<unknown>, o: { ttlMs: number; timeoutMs: number; now?: () => number }) {
  const now = o.now ?? Date.now;
  let last: ProbeState | undefined;
  let inflight: Promise<ProbeState> | undefined;
  return {
    check(): Promise<ProbeState> {
      if (last && now() - last.checkedAt.getTime() < o.ttlMs) return Promise.resolve(last);
      inflight ??= withTimeout(probe(), o.timeoutMs, 'probe')
        .then(
          (): ProbeState => ({ state: 'up', checkedAt: new Date(now()), error: null }),
          (e): ProbeState => ({ state: 'down', checkedAt: new Date(now()), error: publicReason(e) }),
        )
        .then((s) => (last = s))
        .finally(() => (inflight = undefined));
      return inflight;
    },
    reportDown(reason: string): void {
      last = { state: 'down', checkedAt: new Date(now()), error: reason };
    },
  };
}
export type DependencyProbe = ReturnType<typeof createDependencyProbe>;
