import os from 'node:os';
import type { Logger } from './logger';

/** Where a daemon's beats go (db/ops/heartbeat-store.ts). */
export type HeartbeatSink = { beat(name: string, instance: string, startedAt: Date, at: Date): Promise<unknown> };

/** Beats now and every `intervalS` until stopped; a failed beat is logged, never fatal. */
export function startHeartbeat(store: HeartbeatSink, name: string, intervalS: number, log: Logger): () => void {
  const instance = `${os.hostname()}:${process.pid}`;
  const startedAt = new Date();
  const beat = () => store.beat(name, instance, startedAt, new Date()).catch((e) => log.warn({ err: e }, 'heartbeat failed'));
  void beat();
  const t = setInterval(beat, intervalS * 1000);
  t.unref();
  return () => clearInterval(t);
}
