import net from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A TCP forwarder the test controls, to take a real dependency (Postgres, Temporal) away from the API and give
 * it back: `refuse` closes every connection and the port (connection refused), `blackhole` keeps accepting
 * but never answers (a partition), `forward` restores it.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let mode: ProxyMode = 'forward';
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'blackhole') return; // held open, never answered
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port,
    async set(next: ProxyMode): Promise<void> {
      if (next === mode) return;
      const wasListening = mode !== 'refuse';
      mode = next;
      dropAll();
      if (next === 'refuse' && wasListening) await new Promise<void>((r) => server.close(() => r()));
      if (next !== 'refuse' && !wasListening) await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    async close(): Promise<void> {
      dropAll();
      if (mode !== 'refuse') await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
