import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { SHARED_DATA } from '../support/test-env';

/**
 * A local Solana RPC node on one port, over real sockets: JSON-RPC over HTTP POST and the websocket
 * subscription protocol (`logsSubscribe` → subscription id, then `logsNotification` frames).
 *
 * Its "chain" is the recorded Helius `logsSubscribe` session in ../shared/data: `publish(n)` appends the next n
 * recorded transactions to the ledger and notifies subscribers; while no client is subscribed (dropped,
 * refused) they are only appended — "missed" — and `getSignaturesForAddress` / `getTransaction` serve them, so a
 * backfill can find them. Every method is a handler in a registry: `handle(method, fn)` adds or replaces one
 * (the payments tests add treasury signatures, memo transactions, getBalance, getTokenAccountsByOwner).
 */
export const LOGS_CAPTURE = path.join(SHARED_DATA, 'captures', 'helius', 'logs_subscribe_pumpfun.jsonl');

export type CapturedTx = { signature: string; slot: number; err: unknown; logs: string[]; blockTime: number; frame: Record<string, unknown> };

/** Throw from a handler to answer a JSON-RPC error. */
export class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A whole number of days back, different for each test file that backfills the capture (see `shiftDays`). */
export const uniqueShiftDays = () => -1 - randomInt(5_000);

export type RpcHandler = (params: unknown[]) => unknown;

type Frame = { params: { subscription: number; result: { context: { slot: number }; value: { signature: string; err: unknown; logs: string[] } } } };

export function readCapturedTransactions(file = LOGS_CAPTURE): CapturedTx[] {
  const out: CapturedTx[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line) as { t_wall: number; raw: string };
    const frame = JSON.parse(rec.raw) as Frame & { method?: string };
    if (frame.method !== 'logsNotification') continue;
    const { context, value } = frame.params.result;
    out.push({ signature: value.signature, slot: context.slot, err: value.err, logs: value.logs, blockTime: Math.floor(rec.t_wall), frame });
  }
  // A node gives every transaction of a block the block's time, never earlier than the block before: the capture's
  // arrival times (notifications of one slot arrive over a second or more) become one time per slot, in slot order.
  const slotTime = new Map<number, number>();
  for (const t of out) slotTime.set(t.slot, Math.min(slotTime.get(t.slot) ?? Infinity, t.blockTime));
  let last = -Infinity;
  for (const slot of [...slotTime.keys()].sort((a, b) => a - b)) slotTime.set(slot, (last = Math.max(last, slotTime.get(slot)!)));
  for (const t of out) t.blockTime = slotTime.get(t.slot)!;
  return out;
}

/** `getSignaturesForAddress` paging over a ledger kept oldest first: newest first, `before` and `until` exclusive. */
export function pageNewestFirst<T extends { signature: string }>(ledger: readonly T[], config: { limit?: number; before?: string; until?: string }): T[] {
  const limit = Math.min(config.limit ?? 1000, 1000);
  let i = ledger.length - 1;
  if (config.before) {
    const b = ledger.findIndex((t) => t.signature === config.before);
    if (b < 0) throw new RpcFault(-32602, 'Invalid param: before signature not found');
    i = b - 1;
  }
  const out: T[] = [];
  for (; i >= 0 && out.length < limit; i--) {
    const t = ledger[i]!;
    if (t.signature === config.until) break;
    out.push(t);
  }
  return out;
}

/**
 * `shiftDays` moves the whole capture in time. Test files that backfill the capture's range start workflows whose id
 * is the range; on the run's shared Temporal server two files with the same range would join each other's run.
 */
export async function startSolanaRpcServer(opts: { programId: string; capture?: string; shiftDays?: number }) {
  const captured = readCapturedTransactions(opts.capture).map((t) => ({ ...t, blockTime: t.blockTime + (opts.shiftDays ?? 0) * 86_400 }));
  const ledger: CapturedTx[] = [];
  const bySignature = new Map<string, CapturedTx>();
  const subs = new Map<WebSocket, Set<number>>();
  const calls = new Map<string, number>();
  const subscribeRequests: unknown[][] = [];
  let cursor = 0;
  let nextSubId = 13117691;
  let accept = true;
  let answerPings = true;
  let httpFault: 'unavailable' | 'reset' | null = null;
  // A provider's per-second request limit: over it, HTTP 429 with Retry-After (and the JSON-RPC error body providers send).
  let rateLimit: { perSecond: number; retryAfterS: number } | null = null;
  const requestTimes: number[] = [];
  let rateLimited = 0;
  // Transactions the node does not return yet (a node behind the one that listed them): null for their next n reads.
  const lagging = new Map<string, number>();

  const handlers = new Map<string, RpcHandler>();
  const handle = (method: string, fn: RpcHandler) => void handlers.set(method, fn);

  handle('getHealth', () => 'ok');
  handle('getSignaturesForAddress', (params) => {
    const [address, config = {}] = params as [string, { limit?: number; before?: string; until?: string }];
    if (address !== opts.programId) return [];
    return pageNewestFirst(ledger, config).map((t) => ({
      signature: t.signature,
      slot: t.slot,
      err: t.err,
      memo: null,
      blockTime: t.blockTime,
      confirmationStatus: 'confirmed',
    }));
  });
  handle('getTransaction', (params) => {
    const [signature, config] = params as [string, { maxSupportedTransactionVersion?: number } | undefined];
    if (config?.maxSupportedTransactionVersion === undefined) {
      // What a real node answers for a v0 transaction requested without the parameter.
      throw new RpcFault(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    const t = bySignature.get(signature);
    if (!t) return null;
    const lag = lagging.get(signature) ?? 0;
    if (lag > 0) {
      lagging.set(signature, lag - 1);
      return null;
    }
    return {
      slot: t.slot,
      blockTime: t.blockTime,
      version: 0,
      meta: {
        err: t.err,
        status: t.err === null ? { Ok: null } : { Err: t.err },
        fee: 5000,
        logMessages: t.logs,
        preBalances: [],
        postBalances: [],
        innerInstructions: [],
      },
      // The capture has logs only; the message is a placeholder of the right shape.
      transaction: {
        signatures: [t.signature],
        message: {
          accountKeys: [opts.programId],
          header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
          instructions: [],
          recentBlockhash: '11111111111111111111111111111111',
        },
      },
    };
  });

  const server = http.createServer((req, res) => {
    // A node that is down: behind a load balancer (503, no JSON) or gone (the connection cut).
    if (httpFault === 'unavailable') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
    if (httpFault === 'reset') return void req.socket.destroy();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const nowMs = Date.now();
    if (rateLimit && requestTimes.filter((t) => t > nowMs - 1000).length >= rateLimit.perSecond) {
      rateLimited++;
      return void res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(rateLimit.retryAfterS) })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32429, message: 'Too many requests for a specific RPC call' } }));
    }
    requestTimes.push(nowMs);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: { id?: unknown; method?: string; params?: unknown[] };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      }
      const answer = (payload: object) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, ...payload }));
      const method = body.method ?? '';
      calls.set(method, (calls.get(method) ?? 0) + 1);
      const h = handlers.get(method);
      if (!h) return void answer({ error: { code: -32601, message: 'Method not found' } });
      Promise.resolve()
        .then(() => h(body.params ?? []))
        .then(
          (result) => answer({ result }),
          (e) => answer({ error: e instanceof RpcFault ? { code: e.code, message: e.message } : { code: -32603, message: String(e) } }),
        );
    });
  });

  const wss = new WebSocketServer({ noServer: true, autoPong: false });
  server.on('upgrade', (req, socket, head) => {
    if (!accept) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws));
  });

  function onConnection(ws: WebSocket) {
    subs.set(ws, new Set());
    ws.on('close', () => subs.delete(ws));
    ws.on('ping', (data) => answerPings && ws.pong(data));
    ws.on('message', (data) => {
      let msg: { id?: number; method?: string; params?: unknown[] };
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return ws.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      }
      if (msg.method === 'logsSubscribe') {
        subscribeRequests.push(msg.params ?? []);
        const filter = msg.params?.[0] as { mentions?: string[] } | undefined;
        if (!filter?.mentions || filter.mentions.length !== 1) {
          return ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'Invalid Request: Only 1 address supported' } }));
        }
        const id = nextSubId++;
        subs.get(ws)?.add(id);
        return ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: id }));
      }
      if (msg.method === 'logsUnsubscribe') {
        const removed = subs.get(ws)?.delete(msg.params?.[0] as number) ?? false;
        return ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: removed }));
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } }));
    });
  }

  const notify = (t: CapturedTx) => {
    for (const [ws, ids] of subs) {
      for (const id of ids) ws.send(JSON.stringify({ ...t.frame, params: { ...(t.frame.params as object), subscription: id } }));
    }
  };

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    captured,
    handle,
    calls: (method: string) => calls.get(method) ?? 0,
    subscribeRequests: () => subscribeRequests,
    /** Appends the next `n` recorded transactions to the ledger and notifies current subscribers. */
    publish(n = captured.length): CapturedTx[] {
      const batch = captured.slice(cursor, cursor + n);
      cursor += batch.length;
      for (const t of batch) {
        ledger.push(t);
        bySignature.set(t.signature, t);
        notify(t);
      }
      return batch;
    },
    remaining: () => captured.length - cursor,
    /** Sends a raw text frame to every connected client (bad-frame tests). */
    sendRaw(text: string) {
      for (const ws of subs.keys()) ws.send(text);
    },
    /** Sends a notification for every live subscription, built by `make(subscriptionId)`. */
    sendToSubscriptions(make: (subscription: number) => string) {
      for (const [ws, ids] of subs) for (const id of ids) ws.send(make(id));
    },
    subscriptions: () => [...subs.values()].reduce((n, s) => n + s.size, 0),
    connections: () => subs.size,
    /** Cuts every connection without a close handshake, as a crashing server or network would. */
    dropConnections() {
      for (const ws of subs.keys()) ws.terminate();
    },
    setAcceptConnections: (v: boolean) => void (accept = v),
    setAnswerPings: (v: boolean) => void (answerPings = v),
    /** Answers HTTP 429 (with Retry-After) to requests beyond `perSecond` in any second; null lifts the limit. */
    setRateLimit: (l: { perSecond: number; retryAfterS: number } | null) => void (rateLimit = l),
    /** 429 answers given so far. */
    rateLimited: () => rateLimited,
    /** When each JSON-RPC request that was answered arrived (ms). */
    requestTimes: () => [...requestTimes],
    /** getTransaction answers null for these signatures' next `times` reads, as a node behind the cluster does. */
    lagTransactions(signatures: readonly string[], times: number) {
      for (const s of signatures) lagging.set(s, times);
    },
    /** JSON-RPC over HTTP answers 503 (`unavailable`) or has its connections cut (`reset`) until cleared with null. */
    setHttpFault: (f: 'unavailable' | 'reset' | null) => void (httpFault = f),
    async close() {
      for (const ws of subs.keys()) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export type SolanaRpcFake = Awaited<ReturnType<typeof startSolanaRpcServer>>;
