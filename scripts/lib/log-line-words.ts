/**
 * What `npm start` says on a terminal about one line a process printed: plain words for the few lines a person
 * wants to see (a piece is up, its URL, an error, a warning), nothing for the rest (one JSON line per request, the
 * periodic counters), which stay in the process's log file. Pure: the caller throttles and prints.
 */
export type Words = {
  /** `error` lines are printed on stderr, the others on stdout. */
  kind: 'up' | 'note' | 'warning' | 'error';
  text: string;
  /** Lines with the same key are throttled together (a dependency that is down fails the same way every time). */
  key: string;
  /** Said at most once per process run (the first events written). */
  once?: boolean;
  /** An expected event (a retry of a source that is down): one summary line with a count every few minutes. */
  summary?: boolean;
};

type PinoLine = {
  level?: number;
  msg?: string;
  err?: { message?: string; type?: string; nonRetryable?: boolean; cause?: { message?: string } } | string;
  [k: string]: unknown;
};

const WARN = 40;
const ERROR = 50;

const errText = (err: PinoLine['err']): string | undefined => (typeof err === 'string' ? err : err?.message)?.split('\n', 1)[0];
const cut = (s: string, n = 240) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A pino line's own words: the message, and the error's first line when it says more. */
function message(process: string, j: PinoLine): string {
  const msg = j.msg ?? '(no message)';
  const err = errText(j.err);
  return cut(`${process}: ${msg}${err && !msg.includes(err) ? `: ${err}` : ''}`);
}

/** The info lines that say a piece is up or what it is doing, in plain words. */
function infoWords(process: string, j: PinoLine): Words | undefined {
  switch (j.msg) {
    case 'api listening':
      return { kind: 'up', text: `API is listening on ${String(j.url)} (interactive docs at ${String(j.url)}/docs)`, key: 'api-up' };
    case 'worker started':
      return { kind: 'up', text: `worker is polling task queue ${String(j.taskQueue)} on Temporal ${String(j.address)}`, key: 'worker-up' };
    case 'ingest started':
      return { kind: 'up', text: `ingest is reading the ${[j.feeds].flat().join(', ')} feed`, key: 'ingest-up' };
    case 'ingest progress':
      return Number(j.written) > 0
        ? { kind: 'note', text: `${process}: the first events are stored (${String(j.written)} written so far)`, key: 'ingest-first', once: true }
        : undefined;
    default:
      return undefined;
  }
}

/** A line that is not JSON: stack traces and messages printed before the logger exists. Only errors are worth a word. */
function plainWords(process: string, line: string, stream: 'stdout' | 'stderr'): Words | undefined {
  const l = line.trim();
  if (stream !== 'stderr' || !/^(\w*Error\b|error\b|Uncaught|FATAL|panic:)/i.test(l)) return undefined;
  return { kind: 'error', text: cut(`${process}: ${l}`), key: `plain:${l.slice(0, 80)}` };
}

/**
 * The SDK's "Activity failed" line, named by its activity and cause. A failure Temporal will retry (a price source
 * down, a judging wait) is expected: a summary line, never shown as a failure. One it will not retry is an error.
 */
function activityWords(process: string, j: PinoLine): Words {
  const t = (j.temporal ?? {}) as { activityType?: string; attempt?: number };
  const activity = t.activityType ?? 'an activity';
  const err = typeof j.err === 'object' ? j.err : undefined;
  const cause = cut(errText(err?.cause?.message ?? err?.message ?? (typeof j.err === 'string' ? j.err : undefined)) ?? 'no cause given', 160);
  if (err?.nonRetryable === true)
    return { kind: 'error', text: `${process}: activity ${activity} failed for good: ${cause}`, key: `activity-failed:${activity}` };
  return {
    kind: 'note',
    text: `${process}: activity ${activity} will be retried (attempt ${t.attempt ?? '?'}): ${cause}`,
    key: `activity-retry:${activity}`,
    summary: true,
  };
}

export function wordsFor(process: string, line: string, stream: 'stdout' | 'stderr'): Words | undefined {
  if (!line.startsWith('{')) return plainWords(process, line, stream);
  let j: PinoLine;
  try {
    j = JSON.parse(line) as PinoLine;
  } catch {
    return plainWords(process, line, stream);
  }
  const level = Number(j.level ?? 30);
  if (j.msg === 'Activity failed') return activityWords(process, j);
  // pino-http's request lines: one per request, never on the terminal (their 5xx are logged as errors anyway).
  if (j.req !== undefined && j.res !== undefined && level < ERROR) return undefined;
  if (level >= ERROR) return { kind: 'error', text: message(process, j), key: `${level}:${j.msg}` };
  if (level >= WARN) return { kind: 'warning', text: message(process, j), key: `${level}:${j.msg}` };
  return infoWords(process, j);
}
