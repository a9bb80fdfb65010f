import { Client, type ClientConfig } from 'pg';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** The channel the log's appends notify (migration 0018). */
export const FIREHOSE_CHANNEL = 'firehose';

/**
 * A dedicated connection (outside the pool, which serves requests) that LISTENs for appends and calls `onAppend`.
 * The notification only wakes the reader: the events are read from the log, so a notification lost while the
 * connection is down costs latency (the reader also polls), never an event. Reconnects with backoff until stopped.
 */
export function listenForAppends(handle: Db, onAppend: () => void, o: { onError?: (err: Error) => void; maxBackoffMs?: number } = {}) {
  const db = knexOf(handle);
  const settings = (db.client as { connectionSettings: string | ClientConfig }).connectionSettings;
  const config: ClientConfig = typeof settings === 'string' ? { connectionString: settings } : { ...settings };
  let stopped = false;
  let client: Client | undefined;
  let backoffMs = 250;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    const c = new Client({ ...config, keepAlive: true });
    client = c;
    c.on('notification', () => onAppend());
    c.on('error', (err) => {
      o.onError?.(err);
      reconnect(c);
    });
    c.on('end', () => reconnect(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${FIREHOSE_CHANNEL}`);
      backoffMs = 250;
      // Appends made while it was (re)connecting are caught up at once.
      onAppend();
    } catch (err) {
      o.onError?.(err as Error);
      reconnect(c);
    }
  };

  const reconnect = (c: Client) => {
    if (stopped || client !== c) return;
    client = undefined;
    c.removeAllListeners();
    c.on('error', () => undefined);
    void c.end().catch(() => undefined);
    retry = setTimeout(() => void connect(), backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, o.maxBackoffMs ?? 10_000);
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
    },
  };
}
