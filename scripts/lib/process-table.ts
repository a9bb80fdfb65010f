import fs from 'node:fs';

/** A running process as Linux's /proc shows it. */
export type ProcessEntry = { pid: number; ppid: number; cmdline: string };

function entry(pid: number): ProcessEntry | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; the state and ppid follow its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid, cmdline };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** The live (not zombie) direct children of `ppid`. */
export function childProcesses(ppid: number): ProcessEntry[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => entry(Number(d)))
    .filter((p): p is ProcessEntry => p !== undefined && p.ppid === ppid && p.cmdline !== '');
}

/**
 * The processes `npm start` supervises, found by their command lines among the supervisor's children, so a test
 * or a benchmark can kill one the way a crash would.
 */
export const SUPERVISED_COMMANDS = {
  api: /api\/server\.ts$/,
  'api-standby': /api\/server\.ts --standby$/,
  worker: /workers\/main-worker\.ts/,
  ingest: /ingest\/main-ingest\.ts/,
  temporal: /server start-dev/,
  postgres: /\bpostgres -D\b/,
} as const;
export type SupervisedName = keyof typeof SUPERVISED_COMMANDS;

export function supervisedPid(supervisorPid: number, name: SupervisedName): number | undefined {
  return childProcesses(supervisorPid).find((p) => SUPERVISED_COMMANDS[name].test(p.cmdline))?.pid;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
