import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { SHARED_DATA } from '../support/test-env';

/**
 * A local PumpPortal-style websocket server over a real socket. It answers subscriptions the way the recorded
 * session did (acknowledgement texts taken from the capture), replays the recorded `create` / `migrate` frames
 * to clients subscribed to new tokens / migrations, records every message clients send, and can drop
 * connections or refuse new ones.
 *
 * The recorded session has no trade frames (its client had no API key; the server refused
 * `subscribeTokenTrade`, as the capture shows). So: without `?api-key=` in the URL trade subscriptions are refused
 * with the recorded notice; with one they are accepted and `sendTrade` delivers frames built by `tradeFrame` in
 * the shape PumpPortal documents.
 */
export const PUMPPORTAL_CAPTURE = path.join(SHARED_DATA, 'captures', 'pumpportal', 'session1.jsonl');

export type ReceivedMessage = { connection: number; method?: string; keys?: string[]; raw: string };

export function readPumpPortalCapture(file = PUMPPORTAL_CAPTURE): { raw: string; tWall: number }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const r = JSON.parse(l) as { t_wall: number; raw: string };
      return { raw: r.raw, tWall: r.t_wall };
    });
}

/** A trade frame as PumpPortal documents it (decimals: SOL and whole tokens). */
export function tradeFrame(f: {
  signature: string;
  mint: string;
  trader: string;
  isBuy: boolean;
  sol: number;
  tokens: number;
  vSol: number;
  vTokens: number;
  pool?: string;
}): string {
  return JSON.stringify({
    signature: f.signature,
    mint: f.mint,
    traderPublicKey: f.trader,
    txType: f.isBuy ? 'buy' : 'sell',
    tokenAmount: f.tokens,
    solAmount: f.sol,
    newTokenBalance: f.tokens,
    bondingCurveKey: 'BXASjpmw24T7oPwWztENXJ9ojVp3iP1vbiCtVbquJRdZ',
    vTokensInBondingCurve: f.vTokens,
    vSolInBondingCurve: f.vSol,
    marketCapSol: (f.vSol / f.vTokens) * 1e9,
    pool: f.pool ?? 'pump',
  });
}

type Client = { id: number; ws: WebSocket; apiKey: boolean; newTokens: boolean; migrations: boolean; trades: Set<string> };

export async function startPumpPortalServer(opts: { capture?: string } = {}) {
  const capture = readPumpPortalCapture(opts.capture);
  const ack = (needle: string) => capture.find((f) => f.raw.includes('"message"') && f.raw.includes(needle))?.raw ?? JSON.stringify({ message: needle });
  const acks = {
    newToken: ack('token creation'),
    migration: ack('migration'),
    tradeRefused: ack('API key'),
    // Not in the capture (it had no key): plausible texts.
    tradeAccepted: JSON.stringify({ message: 'Successfully subscribed to keys.' }),
    tradeUnsubscribed: JSON.stringify({ message: 'Unsubscribed from keys.' }),
  };
  const events = capture.filter((f) => !f.raw.includes('"message"'));
  const clients = new Set<Client>();
  const received: ReceivedMessage[] = [];
  let cursor = 0;
  let nextId = 1;
  let accept = true;

  const server = http.createServer((_req, res) => void res.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!accept) return void socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
    const apiKey = new URL(req.url ?? '/', 'http://x').searchParams.has('api-key');
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, apiKey));
  });

  function onConnection(ws: WebSocket, apiKey: boolean) {
    const c: Client = { id: nextId++, ws, apiKey, newTokens: false, migrations: false, trades: new Set() };
    clients.add(c);
    ws.on('close', () => clients.delete(c));
    ws.on('message', (data) => {
      const raw = data.toString();
      let msg: { method?: string; keys?: string[] } = {};
      try {
        msg = JSON.parse(raw);
      } catch {
        // Recorded below as-is; PumpPortal ignores what it cannot read.
      }
      received.push({ connection: c.id, method: msg.method, keys: msg.keys, raw });
      switch (msg.method) {
        case 'subscribeNewToken':
          c.newTokens = true;
          return ws.send(acks.newToken);
        case 'subscribeMigration':
          c.migrations = true;
          return ws.send(acks.migration);
        case 'subscribeTokenTrade':
          if (!c.apiKey) return ws.send(acks.tradeRefused);
          for (const k of msg.keys ?? []) c.trades.add(k);
          return ws.send(acks.tradeAccepted);
        case 'unsubscribeTokenTrade':
          for (const k of msg.keys ?? []) c.trades.delete(k);
          return ws.send(acks.tradeUnsubscribed);
      }
    });
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://127.0.0.1:${port}/api/data`,
    /** The recorded create/migrate frames, in order. */
    events,
    received: () => received,
    connections: () => clients.size,
    /** Mints currently subscribed for trades, per open connection. */
    tradeSubscriptions: () => [...clients].map((c) => [...c.trades].sort()),
    /** Sends the next `n` recorded frames to interested clients; returns the frames (sent or, if none listened, missed). */
    publish(n = events.length): string[] {
      const batch = events.slice(cursor, cursor + n).map((f) => f.raw);
      cursor += batch.length;
      for (const raw of batch) {
        const migrate = raw.includes('"txType":"migrate"');
        for (const c of clients) if (migrate ? c.migrations : c.newTokens) c.ws.send(raw);
      }
      return batch;
    },
    remaining: () => events.length - cursor,
    /** Delivers a trade frame to clients subscribed to its mint; returns how many received it. */
    sendTrade(frame: string): number {
      const mint = (JSON.parse(frame) as { mint: string }).mint;
      let n = 0;
      for (const c of clients) {
        if (!c.trades.has(mint)) continue;
        c.ws.send(frame);
        n++;
      }
      return n;
    },
    sendRaw(text: string) {
      for (const c of clients) c.ws.send(text);
    },
    dropConnections() {
      for (const c of clients) c.ws.terminate();
    },
    setAcceptConnections: (v: boolean) => void (accept = v),
    async close() {
      for (const c of clients) c.ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export type PumpPortalFake = Awaited<ReturnType<typeof startPumpPortalServer>>;
