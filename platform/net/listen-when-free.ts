import type { Server } from 'node:net';

/** How often a server waiting for its port tries again: the gap a hot standby leaves when it takes over. */
export const PORT_RETRY_MS = 50;

/**
 * `server.listen(port, host)`, and while another process holds the port, again every `retryMs` until it is free.
 * Two instances of a server on one port are so a hot standby: the one holding the port serves; the other is loaded,
 * connected and waiting, and takes the port within `retryMs` of the first one's death (whose listening socket the
 * kernel closes with it, so clients are refused meanwhile, never left in a queue no one reads). `onWaiting` is
 * called once, when the port is first found taken. Any other listen error is emitted again once this has let go
 * (other `error` listeners see the EADDRINUSE too: they should ignore it).
 */
export function listenWhenFree<S extends Server>(server: S, port: number, host: string, o: { retryMs?: number; onWaiting?: () => void } = {}): S {
  let waited = false;
  const onError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') {
      server.off('error', onError);
      server.emit('error', err);
      return;
    }
    if (!waited) o.onWaiting?.();
    waited = true;
    setTimeout(() => server.listen(port, host), o.retryMs ?? PORT_RETRY_MS);
  };
  server.on('error', onError);
  server.once('listening', () => server.off('error', onError));
  return server.listen(port, host);
}
