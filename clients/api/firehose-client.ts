/**
 * A client of the Enterprise firehose (openapi.yaml `x-firehose`): connects with the key and a subscription,
 * remembers the last seq it was sent, and on a dropped connection reconnects with `since` and the subscription in
 * force, so the caller sees every event of its topics once, in order. Works with any WHATWG-style WebSocket
 * constructor (a browser's, Node 22's global, or the `ws` package's, which can also send the key as a header).
 *
 *   const fh = connectFirehose({ baseUrl: 'https://api.example', key, WebSocket,
 *     topics: [{ kinds: ['score'], min_grad_prob: 0.7 }, { kinds: ['buy'], wallets: [smartWallet] }],
 *     onEvent: (e) => console.log(e.seq, e.kind, e.data) });
 *   fh.subscribe([{ mints: [mint] }]);   // change topics on the open connection
 *   fh.close();
 */
export type FirehoseKind = 'score' | 'live' | 'signal' | 'alert' | 'launch' | 'graduation' | 'buy';
export type FirehoseTopic = { kinds?: FirehoseKind[]; mints?: string[]; wallets?: string[]; min_grad_prob?: number };
export type FirehoseEvent = { type: 'event'; seq: number; kind: FirehoseKind; at: string; data: Record<string, unknown> };
export type FirehoseFrame =
  | FirehoseEvent
  | { type: 'hello'; seq: number; since: number | null; retention_s: number; heartbeat_s: number; topics: FirehoseTopic[] | null; at: string }
  | { type: 'subscribed'; seq: number; topics: FirehoseTopic[] | null; at: string }
  | { type: 'gap'; after_seq: number; resume_seq: number; reason: 'retention' | 'unknown_seq'; resync: 'rest' }
  | { type: 'heartbeat'; seq: number; at: string }
  | { type: 'error'; error: 'invalid_message' | 'invalid_subscription'; detail: string };

type Socket = {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
};
type SocketConstructor = new (url: string, options?: { headers?: Record<string, string> }) => Socket;

export type FirehoseClientOptions = {
  baseUrl: string;
  key: string;
  WebSocket: SocketConstructor;
  topics?: FirehoseTopic[] | null;
  /** Resume after this seq (a previous session's last), else live from now. */
  since?: number;
  /** `header` (Node's `ws`: X-API-Key) or `query` (browsers, which cannot set headers on a websocket). */
  sendKeyAs?: 'header' | 'query';
  onEvent: (e: FirehoseEvent) => void;
  /** Every other frame (hello, subscribed, gap, heartbeat, error). */
  onFrame?: (f: FirehoseFrame) => void;
  /** A close the client will not retry (a refused key or tier: 4401, 4403; a malformed request: 4400). */
  onFatalClose?: (code: number, reason: string) => void;
  /** Wait before reconnecting, from the attempt number (default: 0.5 s doubling to 30 s). */
  backoffMs?: (attempt: number) => number;
};

const FATAL = new Set([4400, 4401, 4403]);

export function connectFirehose(o: FirehoseClientOptions) {
  let lastSeq = o.since ?? null;
  let topics = o.topics ?? null;
  let socket: Socket | undefined;
  let stopped = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function url(): string {
    const u = new URL('/api/v1/firehose', o.baseUrl.replace(/^http/, 'ws'));
    if (lastSeq !== null) u.searchParams.set('since', String(lastSeq));
    if (topics) u.searchParams.set('topics', JSON.stringify(topics));
    if (o.sendKeyAs === 'query') u.searchParams.set('api_key', o.key);
    return u.toString();
  }

  function open(): void {
    const ws = o.sendKeyAs === 'query' ? new o.WebSocket(url()) : new o.WebSocket(url(), { headers: { 'X-API-Key': o.key } });
    socket = ws;
    ws.onmessage = (ev) => {
      const f = JSON.parse(String(ev.data)) as FirehoseFrame;
      if (f.type === 'event') {
        attempt = 0;
        lastSeq = f.seq;
        o.onEvent(f);
        return;
      }
      // Past a gap the client resumes from its resume point: what lies before it is to be read over REST.
      if (f.type === 'gap') lastSeq = f.resume_seq;
      if (f.type === 'hello' && lastSeq === null) lastSeq = f.seq;
      // Everything up to a subscription change was filtered by the topics before it: a resume starts after it.
      if (f.type === 'subscribed') lastSeq = Math.max(lastSeq ?? 0, f.seq);
      o.onFrame?.(f);
    };
    ws.onerror = () => undefined;
    ws.onclose = (ev) => {
      if (socket !== ws || stopped) return;
      if (FATAL.has(ev.code)) {
        stopped = true;
        o.onFatalClose?.(ev.code, ev.reason);
        return;
      }
      const wait = (o.backoffMs ?? ((n) => Math.min(30_000, 500 * 2 ** n)))(attempt++);
      timer = setTimeout(open, wait);
    };
  }
  open();

  return {
    /** Replaces the topics on the open connection (and for every reconnect after it); null: no subscription. */
    subscribe(next: FirehoseTopic[] | null): void {
      topics = next;
      socket?.send(JSON.stringify({ type: 'subscribe', topics: next }));
    },
    /** The last seq this client was sent: where a later session resumes. */
    get lastSeq(): number | null {
      return lastSeq;
    },
    close(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close(1000, 'client_closing');
    },
  };
}
export type FirehoseClient = ReturnType<typeof connectFirehose>;
