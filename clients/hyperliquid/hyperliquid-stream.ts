import type { Logger } from '../../platform/logger';
import type { BackoffOptions } from '../../platform/net/backoff';
import { ReconnectingWebSocket } from '../../platform/net/reconnecting-websocket';
import { wsFrameWire } from './hyperliquid-wire';
import { toTrade, type HlTrade } from './hyperliquid-mapping';

export type HyperliquidStreamOptions = {
  /** e.g. `wss://api.hyperliquid.xyz/ws`. */
  url: string;
  logger: Logger;
  /** Coins whose `trades` channel to follow. */
  coins: string[];
  /** Also follow `allMids`. */
  mids: boolean;
  backoff?: BackoffOptions;
  /**
   * Hyperliquid closes a connection it has not heard from in 60 s; the client sends `{"method":"ping"}` at this
   * period (default 50 s) and the server answers `{"channel":"pong"}`.
   */
  appPingIntervalMs?: number;
  pingIntervalMs?: number;
  connectTimeoutMs?: number;
};

export type HyperliquidStreamHandlers = {
  trades(trades: HlTrade[]): void;
  mids?(mids: Record<string, number>, at: number): void;
  /** Connection lost: whatever traded until the reconnect is missing from this stream (the protocol has no replay). */
  gap?(at: Date, reason: string): void;
};

export type HyperliquidStreamStats = {
  connected: boolean;
  reconnects: number;
  trades: number;
  midsFrames: number;
  badFrames: number;
  errorsFromServer: number;
};

/**
 * Hyperliquid's websocket: `trades` per coin and `allMids`, over the shared reconnecting socket (backoff with
 * jitter, protocol pings, frame size limit). Subscriptions are re-sent on every reconnect because the server
 * forgets them with the connection. Frames whose shape changed are counted and logged as errors, never
 * half-parsed; the socket stays up so one odd frame does not cost the whole stream.
 */
export class HyperliquidStream {
  private readonly socket: ReconnectingWebSocket;
  private appPing: NodeJS.Timeout | null = null;
  private everOpened = false;
  private readonly counters = { reconnects: 0, trades: 0, midsFrames: 0, badFrames: 0, errorsFromServer: 0 };

  constructor(
    private readonly o: HyperliquidStreamOptions,
    private readonly handlers: HyperliquidStreamHandlers,
  ) {
    this.socket = new ReconnectingWebSocket(
      {
        url: o.url,
        logger: o.logger,
        backoff: o.backoff ?? { baseMs: 1_000, maxMs: 60_000 },
        pingIntervalMs: o.pingIntervalMs ?? 30_000,
        connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
        maxFrameBytes: 4 * 1024 * 1024,
      },
      {
        opened: (send) => this.onOpened(send),
        message: (text) => this.onMessage(text),
        lost: (at, reason) => this.handlers.gap?.(at, reason),
      },
    );
  }

  start(): void {
    this.socket.start();
    this.appPing = setInterval(() => this.socket.send(JSON.stringify({ method: 'ping' })), this.o.appPingIntervalMs ?? 50_000);
  }

  async stop(): Promise<void> {
    if (this.appPing) clearInterval(this.appPing);
    this.appPing = null;
    await this.socket.stop();
  }

  stats(): HyperliquidStreamStats {
    return { connected: this.socket.connected, ...this.counters };
  }

  private onOpened(send: (text: string) => boolean): void {
    if (this.everOpened) this.counters.reconnects++;
    this.everOpened = true;
    for (const coin of this.o.coins) send(JSON.stringify({ method: 'subscribe', subscription: { type: 'trades', coin } }));
    if (this.o.mids) send(JSON.stringify({ method: 'subscribe', subscription: { type: 'allMids' } }));
  }

  private onMessage(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.bad(text, 'not JSON');
    }
    const parsed = wsFrameWire.safeParse(json);
    if (!parsed.success) return this.bad(text, parsed.error.issues[0]?.message ?? 'unexpected shape');
    const frame = parsed.data;
    switch (frame.channel) {
      case 'subscriptionResponse':
        // The server acknowledged: the connection works, so the next loss starts its backoff from the base.
        this.socket.healthy();
        return;
      case 'trades':
        this.counters.trades += frame.data.length;
        this.handlers.trades(frame.data.map(toTrade));
        return;
      case 'allMids':
        this.counters.midsFrames++;
        this.handlers.mids?.(frame.data.mids, Date.now());
        return;
      case 'error':
        this.counters.errorsFromServer++;
        this.o.logger.error({ url: this.o.url, data: frame.data }, 'hyperliquid stream: the server reported an error');
        return;
      case 'pong':
        return;
    }
  }

  private bad(text: string, why: string): void {
    this.counters.badFrames++;
    this.o.logger.error({ url: this.o.url, why, frame: text.slice(0, 300) }, 'hyperliquid stream: frame with an unexpected shape');
  }
}
