import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ApiKeyRecord } from '../../db/access/api-key-store';
import { listenForAppends } from '../../db/firehose/firehose-listener';
import type { FirehoseLeaseStore } from '../../db/firehose/firehose-lease-store';
import type { FirehoseLogStore } from '../../db/firehose/firehose-log-store';
import { FIREHOSE_CLOSE, FIREHOSE_MAX_CLIENT_MESSAGE_BYTES, FIREHOSE_PATH, heartbeatFrame, parseSince } from '../../domain/firehose/firehose-protocol';
import { parseTopicsParam } from '../../domain/firehose/firehose-topics';
import type { Db } from '../../db/db-handle';
import type { Logger } from '../../platform/logger';
import { checkFirehoseKey, recheckFirehoseKey, type FirehoseAccessDeps } from './firehose-access';
import { openConnection, type ConnectionSettings, type FirehoseConnection } from './firehose-connection';
import { createFirehoseHub } from './firehose-hub';
import { createLeaseKeeper } from './firehose-leases';

export type FirehoseSettings = ConnectionSettings & {
  maxPerKey: number;
  maxConnections: number;
  leaseS: number;
  recheckS: number;
  ringFrames: number;
  pollMs: number;
};

type Client = { conn: FirehoseConnection; ws: WebSocket; key: ApiKeyRecord | undefined; alive: boolean };

/**
 * Serves the firehose on an HTTP server's upgrades at FIREHOSE_PATH: checks the key (header or `api_key`), the
 * tier and the caps (leases shared by every API process), then streams. Runs the process's hub, heartbeats, key
 * re-checks, lease renewals and log pruning for as long as the server runs; `server.close()` closes every client
 * with 1001 first (their sockets would otherwise hold it open) and releases its leases.
 */
export function attachFirehose(
  server: Server,
  d: { db: Db; store: FirehoseLogStore; leases: FirehoseLeaseStore; access: FirehoseAccessDeps; settings: FirehoseSettings; log: Logger; now: () => Date },
) {
  const s = d.settings;
  const hub = createFirehoseHub({ store: d.store, log: d.log, ringFrames: s.ringFrames });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: FIREHOSE_MAX_CLIENT_MESSAGE_BYTES, clientTracking: false });
  const clients = new Set<Client>();
  const byLease = new Map<number, Client>();
  // A lease that lapsed (not renewed in time) no longer holds the client's place: the client reconnects with `since`.
  const leases = createLeaseKeeper({
    store: d.leases,
    leaseS: s.leaseS,
    caps: { maxPerKey: s.maxPerKey, maxConnections: s.maxConnections },
    log: d.log,
    onLapsed: (id) => byLease.get(id)?.conn.close(FIREHOSE_CLOSE.tryAgainLater, 'lease_expired'),
  });
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const every = (ms: number, fn: () => void) => timers.push(setInterval(fn, ms).unref());
  // Every process prunes (idempotent), clients or not: the log never outgrows the window while any API process runs.
  every(Math.min(60, s.retentionS / 4) * 1000, () => void d.store.prune(s.retentionS).catch(() => undefined));

  // The reader starts with the first connection: a process no Enterprise client uses reads nothing.
  let started: Promise<{ stop(): Promise<void> } | undefined> | undefined;
  const ensureStarted = () =>
    (started ??= hub.start().then(() => {
      if (stopped) return undefined;
      every(s.pollMs, () => void hub.pump());
      every(s.heartbeatS * 1000, heartbeat);
      every(s.recheckS * 1000, () => void recheck());
      every((s.leaseS * 1000) / 3, () => void leases.renew());
      return listenForAppends(d.db, () => void hub.pump(), {
        onError: (err) => d.log.warn({ err: { message: err.message } }, 'firehose: LISTEN connection lost; polling meanwhile'),
      });
    }));

  function heartbeat() {
    const frame = heartbeatFrame(hub.head, d.now());
    for (const c of clients) {
      // A peer that reads nothing answers no ping either: past the bound it is a slow consumer, not a dead one.
      if (c.conn.slow()) continue;
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
      c.conn.send(frame);
    }
  }

  async function recheck() {
    const byKey = new Map<number, Client[]>();
    for (const c of clients) if (c.key) byKey.set(c.key.id, [...(byKey.get(c.key.id) ?? []), c]);
    for (const [keyId, list] of byKey) {
      const refusal = await recheckFirehoseKey(d.access, keyId).catch(() => undefined);
      if (refusal) for (const c of list) c.conn.close(refusal.code, refusal.reason);
    }
  }

  const refuse = (req: IncomingMessage, socket: Duplex, head: Buffer, code: number, reason: string) =>
    wss.handleUpgrade(req, socket, head, (ws) => ws.close(code, reason));

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== FIREHOSE_PATH || stopped) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.on('error', () => undefined);
    // A failed start (the database away) is tried again by the next connection.
    const up = await ensureStarted().then(
      () => true,
      (err: Error) => {
        started = undefined;
        d.log.warn({ err: { message: err.message } }, 'firehose: could not start reading the log');
        return false;
      },
    );
    if (!up) return refuse(req, socket, head, FIREHOSE_CLOSE.tryAgainLater, 'service_unavailable');
    const since = parseSince(url.searchParams.get('since'));
    if (!since.ok) return refuse(req, socket, head, FIREHOSE_CLOSE.badRequest, 'since must be a non-negative integer');
    const topics = parseTopicsParam(url.searchParams.get('topics'));
    // A close reason is at most 123 bytes; the error names the field that failed.
    if (!topics.ok) return refuse(req, socket, head, FIREHOSE_CLOSE.badRequest, topics.error.slice(0, 120));
    const checked = await checkFirehoseKey(d.access, req.rawHeaders, url.searchParams.getAll('api_key')).catch((err: Error) => {
      // The REST API answers 503 here; a websocket's equivalent is 1013, try again later.
      d.log.warn({ err: { message: err.message } }, 'firehose: key lookup failed');
      return { ok: false as const, code: FIREHOSE_CLOSE.tryAgainLater, reason: 'service_unavailable' };
    });
    if (!checked.ok) return refuse(req, socket, head, checked.code, checked.reason);
    const key = checked.key;
    const lease = await leases.acquire(key?.id ?? null).catch((err: Error) => {
      d.log.warn({ err: { message: err.message } }, 'firehose: taking a connection lease failed');
      return undefined;
    });
    if (!lease) return refuse(req, socket, head, FIREHOSE_CLOSE.tryAgainLater, 'service_unavailable');
    if (!lease.ok) return refuse(req, socket, head, FIREHOSE_CLOSE.tooManyConnections, `too_many_connections: ${lease.cap}`);
    // The socket's close (the websocket's, or the peer gone before the handshake) gives the place back.
    socket.once('close', () => leases.release(lease.id));
    if (socket.destroyed || stopped) {
      leases.release(lease.id);
      if (stopped) socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = openConnection(ws, { hub, store: d.store, settings: s, keyId: key?.id, subscription: topics.subscription, now: d.now });
      const client: Client = { conn, ws, key, alive: true };
      clients.add(client);
      byLease.set(lease.id, client);
      ws.on('pong', () => (client.alive = true));
      ws.on('message', (data, isBinary) => {
        if (!isBinary) conn.onMessage(String(data));
      });
      ws.on('error', () => ws.terminate());
      ws.on('close', () => {
        clients.delete(client);
        byLease.delete(lease.id);
      });
      conn.start(since.since).catch((err) => {
        d.log.warn({ err: { message: (err as Error).message } }, 'firehose: catch-up failed');
        conn.close(FIREHOSE_CLOSE.goingAway, 'catch_up_failed');
      });
    });
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    onUpgrade(req, socket, head).catch((err) => {
      d.log.warn({ err: { message: (err as Error).message } }, 'firehose: upgrade failed');
      socket.destroy();
    });
  });

  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    if (stopped) return close(cb);
    stopped = true;
    for (const t of timers) clearInterval(t);
    for (const c of clients) c.conn.close(FIREHOSE_CLOSE.goingAway, 'server_shutdown');
    void started?.then((l) => l?.stop()).catch(() => undefined);
    // The places are free for the other processes before the close is reported.
    const released = leases.releaseAll();
    return close((err) => void released.finally(() => cb?.(err)));
  }) as Server['close'];
  return { hub, connections: () => leases.held };
}
