import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Hyperliquid's public wire protocol on a local socket: `POST /info` (a JSON body with `type`) and a websocket
 * on `/ws` (`{"method":"subscribe","subscription":{…}}` answered by a `subscriptionResponse`, then
 * `{"channel": …, "data": …}` frames; `{"method":"ping"}` answered by `{"channel":"pong"}`). What it answers
 * comes from its owner: the simulator (simulated-hyperliquid-server.ts) or recorded exchanges (test/fakes).
 * It binds to loopback only; production configuration always points at the real exchange.
 */
export type InfoAnswer = { status: number; body: string; headers?: Record<string, string> };
export type WsTradeFrame = { coin: string; side: 'A' | 'B'; px: string; sz: string; hash: string; time: number; tid: number; users: [string, string] };
export type ReceivedWsMessage = { connection: number; raw: string };

type Client = { id: number; ws: WebSocket; trades: Set<string>; mids: boolean };

export async function startHyperliquidWireServer(o: {
  answer: (body: Record<string, unknown>) => InfoAnswer | Promise<InfoAnswer>;
  port?: number;
  /** Other requests its owner serves on the same port (the simulator's Drift bucket); true when it answered. */
  other?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
}) {
  const clients = new Set<Client>();
  const received: ReceivedWsMessage[] = [];
  let nextId = 1;
  let accept = true;

  const server = http.createServer((req, res) => {
    if (o.other?.(req, res)) return;
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/info') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        if (!body || typeof body !== 'object' || typeof body.type !== 'string') throw new Error('no type');
      } catch {
        // Hyperliquid answers a body it cannot deserialize with 422 and a plain-text reason.
        return void res.writeHead(422, { 'content-type': 'text/plain' }).end('Failed to deserialize the JSON body into the target type');
      }
      Promise.resolve(o.answer(body)).then(
        (a) => res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(a.body),
        (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e.message),
      );
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!accept || (req.url ?? '').split('?')[0] !== '/ws') return void socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws));
  });

  function onConnection(ws: WebSocket) {
    const c: Client = { id: nextId++, ws, trades: new Set(), mids: false };
    clients.add(c);
    ws.on('close', () => clients.delete(c));
    ws.on('message', (data) => {
      const raw = data.toString();
      received.push({ connection: c.id, raw });
      let msg: { method?: string; subscription?: { type?: string; coin?: string } };
      try {
        msg = JSON.parse(raw);
      } catch {
        return ws.send(JSON.stringify({ channel: 'error', data: `Error parsing JSON into valid websocket request: ${raw}` }));
      }
      if (msg.method === 'ping') return ws.send(JSON.stringify({ channel: 'pong' }));
      const sub = msg.subscription;
      if ((msg.method === 'subscribe' || msg.method === 'unsubscribe') && sub) {
        const on = msg.method === 'subscribe';
        if (sub.type === 'trades' && sub.coin) {
          if (on) c.trades.add(sub.coin);
          else c.trades.delete(sub.coin);
        } else if (sub.type === 'allMids') c.mids = on;
        else return ws.send(JSON.stringify({ channel: 'error', data: `Invalid subscription ${raw}` }));
        return ws.send(JSON.stringify({ channel: 'subscriptionResponse', data: { method: msg.method, subscription: sub } }));
      }
      ws.send(JSON.stringify({ channel: 'error', data: `Unknown method ${raw}` }));
    });
  }

  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    /** Base URL for the info client (`${url}/info`). */
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    /** Sends one `trades` frame per coin to its subscribers; returns how many connections received one. */
    publishTrades(trades: WsTradeFrame[]): number {
      const byCoin = new Map<string, WsTradeFrame[]>();
      for (const t of trades) byCoin.set(t.coin, [...(byCoin.get(t.coin) ?? []), t]);
      let n = 0;
      for (const [coin, list] of byCoin) {
        const frame = JSON.stringify({ channel: 'trades', data: list });
        for (const c of clients) {
          if (!c.trades.has(coin)) continue;
          c.ws.send(frame);
          n++;
        }
      }
      return n;
    },
    publishMids(mids: Record<string, string>): number {
      const frame = JSON.stringify({ channel: 'allMids', data: { mids } });
      let n = 0;
      for (const c of clients) {
        if (!c.mids) continue;
        c.ws.send(frame);
        n++;
      }
      return n;
    },
    sendRaw(text: string): void {
      for (const c of clients) c.ws.send(text);
    },
    subscriptions: () => [...clients].map((c) => ({ trades: [...c.trades].sort(), mids: c.mids })),
    received: () => received,
    connections: () => clients.size,
    dropConnections(): void {
      for (const c of clients) c.ws.terminate();
    },
    setAcceptConnections: (v: boolean) => void (accept = v),
    async close(): Promise<void> {
      for (const c of clients) c.ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export type HyperliquidWireServer = Awaited<ReturnType<typeof startHyperliquidWireServer>>;
