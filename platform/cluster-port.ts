import type { Worker } from 'node:cluster';
import net, { type Server } from 'node:net';
import { PORT_RETRY_MS } from './net/listen-when-free';

/** What a cluster process and its primary say about the shared port. */
const READY = 'cluster-port:ready';
const LISTEN = 'cluster-port:listen';

/**
 * The primary's side of the shared port. A process that has loaded says it is ready; it is told to listen once this
 * cluster serves the port (a process forked again joins the socket the others share) or, while another instance
 * holds the port (this one is its hot standby), as soon as a probe finds the port free. Each process calls `listen`
 * exactly once, on this word: node's cluster keys a shared socket by the count of a process's listen calls, so a
 * process retrying on its own would end up asking for a socket of its own, which a port already bound cannot give.
 */
export function createPortGate(o: { port: number; host: string; serving: () => boolean; onWaiting: () => void }) {
  const ready = new Set<Worker>();
  let probing: NodeJS.Timeout | undefined;
  let waited = false;
  const tell = () => {
    for (const w of ready) if (w.isConnected()) w.send(LISTEN);
    ready.clear();
  };
  const probe = () => {
    probing = undefined;
    if (ready.size === 0) return;
    if (o.serving()) return tell();
    const s = net.createServer();
    s.once('error', () => {
      if (!waited) o.onWaiting();
      waited = true;
      probing = setTimeout(probe, PORT_RETRY_MS);
    });
    s.listen(o.port, o.host, () => s.close(tell));
  };
  return {
    /** Called for each forked process: listens for its "ready". */
    watch(w: Worker): void {
      w.on('message', (m: unknown) => {
        if (m !== READY) return;
        ready.add(w);
        if (!probing) probe();
      });
    },
    stop(): void {
      clearTimeout(probing);
    },
  };
}

/** A cluster process's side: says it is ready, then listens when the primary says so (createPortGate). */
export function listenWhenTold<S extends Server>(server: S, port: number, host: string): S {
  const onWord = (m: unknown) => {
    if (m !== LISTEN) return;
    process.off('message', onWord);
    server.listen(port, host);
  };
  process.on('message', onWord);
  process.send!(READY);
  return server;
}
