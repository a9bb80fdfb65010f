import WebSocket from 'ws';
import type { Logger } from '../logger';
import { backoffDelayMs, cancellableSleep, type BackoffOptions } from './backoff';

export type ReconnectingWebSocketOptions = {
  url: string;
  logger: Logger;
  backoff: BackoffOptions;
  /**
   * Ping period. Public feeds close sockets that stay silent (a quiet market is silent), and a half-open TCP
   * connection is only noticed by a ping that gets no pong: one unanswered for a whole period ends the socket.
   */
  pingIntervalMs: number;
  /** Opening handshake limit. */
  connectTimeoutMs: number;
  /** Larger frames close the connection instead of filling memory. */
  maxFrameBytes: number;
  random?: () => number;
};

export type SocketHandlers = {
  /** Connected: send subscriptions here. */
  opened(send: (text: string) => boolean): void;
  message(text: string): void;
  /** The connection was lost (never called for `stop`). */
  lost(at: Date, reason: string): void;
};

/**
 * One websocket that comes back: after a loss it reconnects with exponential backoff and jitter, for as long
 * as the feed runs. The backoff restarts from the base only once the owner calls `healthy()` (the server
 * acknowledged a subscription), so a server that accepts and immediately drops is not hammered.
 */
export class ReconnectingWebSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private running = false;
  private cancelSleep: (() => void) | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private closed: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: ReconnectingWebSocketOptions,
    private readonly handlers: SocketHandlers,
  ) {}

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  healthy(): void {
    this.attempt = 0;
  }

  send(text: string): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(text);
    return true;
  }

  /** Drops the current connection (e.g. the server refused a subscription); the usual reconnect follows. */
  restart(reason: string): void {
    this.opts.logger.warn({ url: this.opts.url, reason }, 'restarting feed connection');
    this.ws?.terminate();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.cancelSleep?.();
    const ws = this.ws;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      ws.close(1000, 'feed stopped');
      // A server that never answers the close handshake must not hold shutdown.
      const t = setTimeout(() => ws.terminate(), 1000);
      await this.closed;
      clearTimeout(t);
    }
  }

  private connect(): void {
    const ws = new WebSocket(this.opts.url, { handshakeTimeout: this.opts.connectTimeoutMs, maxPayload: this.opts.maxFrameBytes });
    this.ws = ws;
    let alive = true;
    let resolveClosed = () => {};
    this.closed = new Promise<void>((r) => (resolveClosed = r));

    ws.on('open', () => {
      this.opts.logger.info({ url: this.opts.url }, 'feed connected');
      this.pingTimer = setInterval(() => {
        if (!alive) {
          this.opts.logger.warn({ url: this.opts.url }, 'no pong within a ping period: dropping the connection');
          ws.terminate();
          return;
        }
        alive = false;
        ws.ping();
      }, this.opts.pingIntervalMs);
      this.handlers.opened((text) => this.send(text));
    });
    ws.on('pong', () => (alive = true));
    ws.on('message', (data) => {
      alive = true;
      this.handlers.message(toText(data));
    });
    // 'error' is always followed by 'close', where the reconnect happens; the listener keeps it from throwing.
    ws.on('error', (err) => this.opts.logger.warn({ url: this.opts.url, err: err.message }, 'feed socket error'));
    ws.on('close', (code, reason) => {
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      resolveClosed();
      if (!this.running) return;
      this.handlers.lost(new Date(), `closed ${code} ${reason.toString('utf8')}`.trim());
      void this.reconnectLater();
    });
  }

  private async reconnectLater(): Promise<void> {
    const delay = backoffDelayMs(this.attempt++, this.opts.backoff, this.opts.random);
    this.opts.logger.info({ url: this.opts.url, delayMs: delay, attempt: this.attempt }, 'feed reconnecting');
    const sleep = cancellableSleep(delay);
    this.cancelSleep = sleep.cancel;
    const slept = await sleep.done;
    this.cancelSleep = null;
    if (slept && this.running) this.connect();
  }
}

function toText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
