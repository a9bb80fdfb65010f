import { recordAnswer, startBareServer } from './bare-server';
import { formatOutcomes } from './paced-load';

export type PollCost = { sent: number; okPerS: number; p50: number; p99: number; outcomes: string };

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type Sample = { sentAt: number; doneAt: number; outcome: number | string };

/**
 * `keys.length` pollers, each requesting `path` once a second with its own key (open loop: the next poll leaves on
 * time whether or not the last one answered), their phases spread evenly over the second as independent bots'
 * are; the first 2 s are warm-up.
 */
async function pollers(base: string, path: string, keys: readonly string[], durationS: number): Promise<PollCost> {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  const fire = (key: string) => {
    const sentAt = Date.now();
    const p = fetch(base + path, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(5000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status as number | string;
      })
      .catch((e: { name?: string }) => (e.name === 'TimeoutError' ? 'timeout' : 'error'))
      .then((outcome) => void samples.push({ sentAt, doneAt: Date.now(), outcome }))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const timers: NodeJS.Timeout[] = [];
  keys.forEach((k, i) =>
    timers.push(
      setTimeout(
        () => {
          fire(k);
          timers.push(setInterval(() => fire(k), 1000));
        },
        (i * 1000) / keys.length,
      ),
    ),
  );
  const from = Date.now() + 2000;
  await sleep(durationS * 1000);
  const to = Date.now();
  timers.forEach((t) => clearTimeout(t));
  await Promise.all([...inFlight]);
  const xs = samples.filter((s) => s.sentAt >= from && s.sentAt < to);
  const ok = xs.filter((s) => s.outcome === 200).map((s) => s.doneAt - s.sentAt);
  const byOutcome: Record<string, number> = {};
  for (const s of xs) byOutcome[String(s.outcome)] = (byOutcome[String(s.outcome)] ?? 0) + 1;
  return { sent: xs.length, okPerS: ok.length / ((to - from) / 1000), p50: pct(ok, 50), p99: pct(ok, 99), outcomes: formatOutcomes(byOutcome) };
}

/**
 * The poll cost: the pollers against the API with their own keys (each call counts against its key's quota, one
 * statement per key), then sharing one key (the quota counter folds a burst of one key into one statement), then
 * against a bare Node http server (its own process) answering the bytes the API answered for the same request: the
 * reference, what the machine and the load generator allow at all, measured in the same run.
 */
export async function pollCostAgainstBare(o: { apiBase: string; path: string; keys: readonly string[]; durationS: number; workDir: string }) {
  const api = await pollers(o.apiBase, o.path, o.keys, o.durationS);
  const shared = await pollers(
    o.apiBase,
    o.path,
    Array.from(o.keys, () => o.keys[0]!),
    o.durationS,
  );
  // fetch asks for gzip: the answer to that request, and the plain one, served again as recorded.
  const answers = [
    await recordAnswer(o.apiBase, o.path, { 'x-api-key': o.keys[0]!, 'accept-encoding': 'gzip, deflate' }),
    await recordAnswer(o.apiBase, o.path, { 'x-api-key': o.keys[0]! }),
  ];
  const bare = await startBareServer(answers, o.workDir);
  try {
    const ref = await pollers(bare.url, o.path, o.keys, o.durationS);
    return { api, shared, bare: ref, bytes: answers[0]!.bytes, status: answers[0]!.status };
  } finally {
    await bare.stop();
  }
}
