import fs from 'node:fs';

/** What `read` returns, or `fallback` when the process or file is gone (or not ours to read). */
function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The inodes of the sockets listening on `port` (any address, IPv4 or IPv6), from /proc/net. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readOr(() => fs.readFileSync(file, 'utf8'), '')
      .split('\n')
      .slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is "ADDR:PORT"; state 0A is LISTEN; the inode is the tenth field.
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A' && f[9]) inodes.add(f[9]);
    }
  }
  return inodes;
}

/**
 * The processes holding a listening socket on `port` (Linux; only processes of this user can be read), so a
 * benchmark can tell which of two servers waiting for one port is the one serving it.
 */
export function listeningPids(port: number): number[] {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return [];
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const fds = readOr(() => fs.readdirSync(`/proc/${d}/fd`), []);
    const holds = fds.some((fd) => {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${d}/fd/${fd}`));
        return m !== null && inodes.has(m[1]!);
      } catch {
        return false;
      }
    });
    if (holds) pids.push(Number(d));
  }
  return pids;
}
