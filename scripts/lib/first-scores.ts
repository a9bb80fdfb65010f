import { sleep } from './run';

type LiveMint = { mint: string; symbol: string; age_s: number; grad_prob: number | null; grad_prob_age_bucket: number | null };

/** The line `npm start` prints for a mint's first score at an age bucket. */
export function firstScoreLine(m: LiveMint): string {
  return `first ${m.grad_prob_age_bucket} s score: ${m.mint.slice(0, 8)}… (${m.symbol}) grad_prob ${m.grad_prob!.toFixed(2)}`;
}

/**
 * Watches the public live list (`/api/live`, as any client reads it) until the first score at each age bucket
 * has appeared, says each once, and stops. A person starting the system sees that the whole path (feed, ingest,
 * lifecycle workflow, scoring, projector, API) works without reading a log. Only a list built after `since` (this
 * start) counts: after a restart the API still holds the list built before the stop, and a score in it proves
 * nothing about the processes just started.
 */
export function watchFirstScores(
  apiUrl: string,
  say: (line: string) => void,
  o: { buckets?: number[]; everyMs?: number; since?: Date } = {},
): { stop: () => void } {
  const sinceMs = o.since?.getTime() ?? -Infinity;
  const pending = new Set(o.buckets ?? [30, 60]);
  let stopped = false;
  void (async () => {
    while (!stopped && pending.size > 0) {
      const r = await fetch(`${apiUrl}/api/live`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      if (r?.ok) {
        const body = (await r.json().catch(() => undefined)) as { generated_at?: string; mints?: LiveMint[] } | undefined;
        const fresh = body?.generated_at !== undefined && Date.parse(body.generated_at) >= sinceMs;
        for (const m of fresh ? (body?.mints ?? []) : []) {
          if (m.grad_prob === null || m.grad_prob_age_bucket === null || !pending.has(m.grad_prob_age_bucket)) continue;
          pending.delete(m.grad_prob_age_bucket);
          if (!stopped) say(firstScoreLine(m));
        }
      }
      await sleep(o.everyMs ?? 2000);
    }
  })();
  return { stop: () => void (stopped = true) };
}
