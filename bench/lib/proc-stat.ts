import fs from 'node:fs';
import os from 'node:os';

const USER_HZ = 100;

/**
 * CPU seconds (user + system) a process has used so far, with `reapedChildren` also those of its children that
 * have exited (Postgres backends come and go); NaN once it has exited. Linux /proc.
 */
export function cpuSeconds(pid: number, reapedChildren = false): number {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + (reapedChildren ? Number(f[13]) + Number(f[14]) : 0)) / USER_HZ;
  } catch {
    return NaN;
  }
}

/** CPU seconds of a whole cluster: the postmaster, the backends it has reaped, and the live ones. */
export function postgresCpuSeconds(dataDir: string): number {
  const [master, ...children] = postgresPids(dataDir);
  if (master === undefined) return NaN;
  return cpuSeconds(master, true) + children.reduce((s, p) => s + (cpuSeconds(p) || 0), 0);
}

/** Resident memory now, in MiB; 0 once the process has exited. */
export function rssMiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The machine a figure was measured on, and how busy it was (1, 5 and 15 minute load averages). */
export function machineNow(): { cpu: string; cores: number; memGiB: number; load: string } {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus.length,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    load: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / '),
  };
}

/** The postmaster of a cluster and its children (backends, checkpointer, …), from its pid file. */
export function postgresPids(dataDir: string): number[] {
  let master: number;
  try {
    master = Number(fs.readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const raw = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(raw.slice(raw.lastIndexOf(')') + 2).split(' ')[1]) === master;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [master, ...children];
}
