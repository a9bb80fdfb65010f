import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { OutputSink } from './process-output';

const ROOT = path.resolve(__dirname, '..', '..');

/** How a process ended: an exit code, the signal that killed it, or the error that kept it from starting. */
export type Exit = { code: number | null; signal: NodeJS.Signals | null; error?: Error };

/** A process the supervisor started and watches. */
export type RunningService = {
  pid: number | undefined;
  /** Resolves once, when the process is gone, however it ended. */
  exited: Promise<Exit>;
  /** Asks the process to stop (escalating if it does not) and resolves once it is gone. */
  stop: () => Promise<void>;
  /** The last lines it printed, for a crash report. */
  output?: () => string;
};

export function describeExit(e: Exit): string {
  if (e.error) return `failed to run: ${e.error.message}`;
  return e.signal ?? `code ${e.code}`;
}

/** The child's end as a promise, registered at spawn so an exit that happens before anyone asks is not missed. */
export function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      // An error after the process ran (a failed kill) is followed by its own 'exit'; one before it never runs.
      if (child.pid === undefined) resolve({ code: null, signal: null, error });
    });
  });
}

/** Why waiting for a child is pointless: it has already exited (with its last output). */
export function exitedEarly(child: ChildProcess, tail: () => string): string | undefined {
  if (child.pid === undefined) return 'it could not be started';
  if (child.exitCode === null && child.signalCode === null) return undefined;
  return `it exited (${describeExit({ code: child.exitCode, signal: child.signalCode })})\n${tail()}`;
}

/** Sends `signal`, then `escalate` (SIGKILL unless given) after `graceMs`; resolves once the process is gone. */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<Exit>,
  o: { signal: NodeJS.Signals; graceMs: number; escalate?: NodeJS.Signals },
): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(o.signal);
    const t = setTimeout(() => child.kill(o.escalate ?? 'SIGKILL'), o.graceMs);
    await exited;
    clearTimeout(t);
  }
  await exited;
}

export type SpawnedService = RunningService & { child: ChildProcess; output: () => string };

/**
 * Any program as a supervised service. Its output is passed through to ours (`echo`, the default), handed to `sink`
 * (npm start's log files and terminal account, lib/process-output.ts), or appended to `logFile` by the program itself
 * (through a file descriptor: it keeps writing if we die), and its tail kept for crash reports. `detached` (the default) puts it in its own process group, so a
 * Ctrl-C at the terminal reaches only the supervisor, which then stops everything in order.
 */
export function spawnService(
  cmd: string,
  args: string[],
  o: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    echo?: boolean;
    sink?: OutputSink;
    logFile?: string;
    detached?: boolean;
    stopSignal?: NodeJS.Signals;
    escalate?: NodeJS.Signals;
    graceMs?: number;
    spawn?: Pick<SpawnOptions, 'uid' | 'gid'>;
  } = {},
): SpawnedService {
  if (o.logFile) {
    fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
    rotateIfLarge(o.logFile, SELF_WRITTEN_LOG_MAX_BYTES);
  }
  const log = o.logFile ? fs.openSync(o.logFile, 'a') : undefined;
  const child = spawn(cmd, args, {
    cwd: o.cwd ?? ROOT,
    env: o.env ?? process.env,
    detached: o.detached ?? true,
    stdio: ['ignore', log ?? 'pipe', log ?? 'pipe'],
    ...o.spawn,
  });
  if (log !== undefined) fs.closeSync(log);
  const exited = exitOf(child);
  let tail = '';
  const keep = (stream: 'stdout' | 'stderr') => (b: Buffer) => {
    tail = (tail + b.toString()).slice(-4000);
    if (o.sink) o.sink(b, stream);
    else if (o.echo !== false) (stream === 'stdout' ? process.stdout : process.stderr).write(b);
  };
  child.stdout?.on('data', keep('stdout'));
  child.stderr?.on('data', keep('stderr'));
  return {
    child,
    pid: child.pid,
    exited,
    output: () => (o.logFile ? fileTail(o.logFile) : tail),
    stop: () => stopChild(child, exited, { signal: o.stopSignal ?? 'SIGTERM', graceMs: o.graceMs ?? 15_000, escalate: o.escalate }),
  };
}

/** A log file a program writes itself is moved aside past this size when the program is (re)started. */
const SELF_WRITTEN_LOG_MAX_BYTES = 10 * 2 ** 20;

/** Moves a log file a program appends to itself aside (to `<file>.1`) once it is past `maxBytes`: bounded per start. */
export function rotateIfLarge(file: string, maxBytes: number): void {
  try {
    if (fs.statSync(file).size > maxBytes) fs.renameSync(file, `${file}.1`);
  } catch {
    /* no file yet */
  }
}

function fileTail(file: string): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const buf = Buffer.alloc(Math.min(size, 4000));
      fs.readSync(fd, buf, 0, buf.length, size - buf.length);
      return buf.toString();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * One of the project's TypeScript entry points (`api/server.ts`, …) as a supervised service: node with tsx as a
 * loader, not the tsx CLI, so the pid we watch and signal is the program itself (see daemon-process.ts).
 */
export function nodeEntryService(entry: string, env: NodeJS.ProcessEnv, o: { echo?: boolean; sink?: OutputSink; args?: string[] } = {}): SpawnedService {
  return spawnService(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...(o.args ?? [])], {
    env,
    echo: o.echo,
    sink: o.sink,
    stopSignal: 'SIGINT',
  });
}
