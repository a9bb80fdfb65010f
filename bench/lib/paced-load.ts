/**
 * An open-loop load at a fixed rate per stream (a request every 1/rate s whether or not the last one has
 * answered, as clients do), recording when each request was sent and how it ended, so any time window can be
 * summarised afterwards: statuses, connection errors, the longest stretch without an answer.
 */
export type LoadStream = { name: string; url: string; ratePerS: number; headers?: Record<string, string> };
export type Outcome = number | 'refused' | 'reset' | 'timeout' | 'error';
export type Sample = { stream: string; sentAt: number; doneAt: number; outcome: Outcome };

export function startPacedLoad(streams: LoadStream[], o: { timeoutMs: number; maxInFlight?: number }) {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  let skipped = 0;
  const fire = (s: LoadStream) => {
    if (inFlight.size >= (o.maxInFlight ?? 500)) return void skipped++;
    const sentAt = Date.now();
    const p = fetch(s.url, { headers: s.headers, signal: AbortSignal.timeout(o.timeoutMs) })
      .then(async (r): Promise<Outcome> => {
        await r.arrayBuffer().catch(() => undefined);
        return r.status;
      })
      .catch((e: unknown): Outcome => classify(e))
      .then((outcome) => void samples.push({ stream: s.name, sentAt, doneAt: Date.now(), outcome }))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const timers = streams.map((s) => setInterval(() => fire(s), 1000 / s.ratePerS));
  return {
    samples,
    /** Requests not sent because too many were still waiting (a sign the client, not the server, was the limit). */
    skipped: () => skipped,
    stop: async () => {
      timers.forEach(clearInterval);
      await Promise.all([...inFlight]);
    },
  };
}

function classify(e: unknown): Outcome {
  const err = e as { name?: string; cause?: { code?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout';
  const code = err.cause?.code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'reset';
  return 'error';
}

export type WindowStats = {
  sent: number;
  answered: number;
  /** Count per HTTP status, and per kind of failure for requests that got no answer. */
  byOutcome: Record<string, number>;
  serverErrors: number;
  /** The longest stretch inside the window in which no request got any HTTP answer, and when it ended. */
  longestSilenceMs: number;
  longestSilenceEndsAt: number;
};

/** Requests sent in [from, to) and what became of them. */
export function windowStats(samples: readonly Sample[], from: number, to: number, stream?: string): WindowStats {
  const xs = samples.filter((s) => s.sentAt >= from && s.sentAt < to && (stream === undefined || s.stream === stream));
  const byOutcome: Record<string, number> = {};
  for (const s of xs) byOutcome[String(s.outcome)] = (byOutcome[String(s.outcome)] ?? 0) + 1;
  const answers = samples
    .filter((s) => typeof s.outcome === 'number' && s.doneAt >= from && s.doneAt < to && (stream === undefined || s.stream === stream))
    .map((s) => s.doneAt)
    .sort((a, b) => a - b);
  let longest = 0;
  let endsAt = from;
  let last = from;
  for (const t of [...answers, to]) {
    if (t - last > longest) [longest, endsAt] = [t - last, t];
    last = t;
  }
  return {
    sent: xs.length,
    answered: xs.filter((s) => typeof s.outcome === 'number').length,
    byOutcome,
    serverErrors: xs.filter((s) => typeof s.outcome === 'number' && s.outcome >= 500).length,
    longestSilenceMs: longest,
    longestSilenceEndsAt: endsAt,
  };
}

/** "200×812 503×4 refused×37", statuses first. */
export function formatOutcomes(byOutcome: Record<string, number>): string {
  return Object.entries(byOutcome)
    .sort(([a], [b]) => (isNaN(Number(a)) ? 1 : 0) - (isNaN(Number(b)) ? 1 : 0) || a.localeCompare(b))
    .map(([k, n]) => `${k}×${n}`)
    .join(' ');
}
