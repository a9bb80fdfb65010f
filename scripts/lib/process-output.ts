import path from 'node:path';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { createLogThrottle } from '../../platform/logger';
import { wordsFor } from './log-line-words';

/**
 * Where the output of `npm start`'s processes goes. Every line goes to the process's own log file
 * (`<data>/logs/<name>.log`, rotated at LOG_FILE_SIZE, LOG_FILES_KEPT old files kept: `npm run logs` reads them).
 * In `json` mode (the default when stdout is not a terminal: production, CI, tests) the lines are also passed
 * through to our stdout and stderr as they are. In `pretty` mode (a terminal) only plain words about the lines that
 * matter are printed (lib/log-line-words.ts), each kind of error or warning at most once per THROTTLE_MS, and each
 * kind of expected retry at most once per SUMMARY_MS with the count of those in between.
 */
export type OutputMode = 'pretty' | 'json';
export type OutputSink = (chunk: Buffer, stream: 'stdout' | 'stderr') => void;

export const LOG_FILE_SIZE = '10M';
export const LOG_FILES_KEPT = 2;
const THROTTLE_MS = 30_000;
/** Expected events (activity retries) are summed up at most this often. */
const SUMMARY_MS = 5 * 60_000;

export const logsDirOf = (dataDir: string) => path.join(dataDir, 'logs');
export const logFileOf = (dataDir: string, name: string) => path.join(logsDirOf(dataDir), `${name}.log`);

export function createProcessOutput(o: { mode: OutputMode; dataDir: string; say?: (line: string) => void; complain?: (line: string) => void }) {
  const say = o.say ?? ((l: string) => console.log(l));
  const complain = o.complain ?? ((l: string) => console.error(l));
  const files = new Map<string, RotatingFileStream>();
  const throttle = createLogThrottle(THROTTLE_MS);
  const summaries = createLogThrottle(SUMMARY_MS);
  const said = new Set<string>();

  const fileFor = (name: string) => {
    let f = files.get(name);
    if (!f) {
      // Classical rotation: api.log, then api.log.1, api.log.2 (the oldest dropped).
      f = createStream((i: number | Date | null) => (typeof i === 'number' && i > 0 ? `${name}.log.${i}` : `${name}.log`), {
        path: logsDirOf(o.dataDir),
        size: LOG_FILE_SIZE,
        rotate: LOG_FILES_KEPT,
      });
      f.on('error', (e) => complain(`✗ cannot write ${name}'s log file: ${e.message}`));
      files.set(name, f);
    }
    return f;
  };

  const speak = (name: string, line: string, stream: 'stdout' | 'stderr') => {
    const w = wordsFor(name, line, stream);
    if (!w) return;
    if (w.once) {
      if (said.has(`${name}:${w.key}`)) return;
      said.add(`${name}:${w.key}`);
    }
    const suppressed = (w.summary ? summaries : throttle).admit(`${name}:${w.key}`);
    if (suppressed === undefined) return;
    const more = suppressed > 0 ? ` (${suppressed} more like it ${w.summary ? 'in the last few minutes' : 'since'})` : '';
    if (w.kind === 'error') complain(`✗ ${w.text}${more}`);
    else say(`${w.kind === 'warning' ? '!' : '•'} ${w.text}${more}`);
  };

  return {
    mode: o.mode,
    /** The sink of one process's output (kept across its restarts). */
    sink(name: string): OutputSink {
      const partial = { stdout: '', stderr: '' };
      return (chunk, stream) => {
        fileFor(name).write(chunk);
        if (o.mode === 'json') {
          (stream === 'stdout' ? process.stdout : process.stderr).write(chunk);
          return;
        }
        const lines = (partial[stream] + chunk.toString()).split('\n');
        partial[stream] = lines.pop()!.slice(-100_000);
        for (const line of lines) speak(name, line, stream);
      };
    },
    close: () => Promise.all([...files.values()].map((f) => new Promise<void>((resolve) => f.end(() => resolve())))).then(() => undefined),
  };
}
export type ProcessOutput = ReturnType<typeof createProcessOutput>;
