/**
 * The Enterprise firehose's wire protocol (README "Enterprise firehose", openapi.yaml `x-firehose`): JSON text
 * frames from the server, close codes for every refusal. Pure: the API builds frames and decisions from these.
 */
import { parseSubscription, type Subscription } from './firehose-topics';

export const FIREHOSE_PATH = '/api/v1/firehose';

/** The largest client message: a subscription of 20 topics naming up to a hundred addresses each fits. */
export const FIREHOSE_MAX_CLIENT_MESSAGE_BYTES = 128 * 1024;

/** Every close the server initiates, with the reason string it sends (the error codes of the REST API where they exist). */
export const FIREHOSE_CLOSE = {
  /** Server shutting down or restarting: reconnect (to another process) with `since`. */
  goingAway: 1001,
  /** The key or a connection lease could not be looked up or taken (the database is away): the REST API's 503; or
   * the connection's lease could not be renewed before it expired (`lease_expired`). */
  tryAgainLater: 1013,
  /** A malformed `since`. */
  badRequest: 4400,
  /** No key, a malformed, unknown, revoked or not yet paid key, or two different keys; at connect or at a re-check. */
  unauthorized: 4401,
  /** The key's tier is not Enterprise: at connect (`insufficient_tier`) or when its plan lapsed (`plan_lapsed`). */
  forbidden: 4403,
  /** The client read too slowly: the server's send buffer for it passed its bound. */
  slowConsumer: 4408,
  /** Too many connections for this key, or in all, counted over every API process. */
  tooManyConnections: 4429,
} as const;

export type { FirehoseKind } from './firehose-topics';

/** One event frame, its payload spliced in as the JSON text Postgres wrote (serialised once for every client). */
export function eventFrame(e: { seq: number; kind: string; at: string; payloadJson: string }): string {
  return `{"type":"event","seq":${e.seq},"kind":${JSON.stringify(e.kind)},"at":${JSON.stringify(e.at)},"data":${e.payloadJson}}`;
}

export function helloFrame(o: { headSeq: number; since: number | null; retentionS: number; heartbeatS: number; topics: Subscription; now: Date }): string {
  return JSON.stringify({
    type: 'hello',
    seq: o.headSeq,
    since: o.since,
    retention_s: o.retentionS,
    heartbeat_s: o.heartbeatS,
    topics: o.topics,
    at: o.now.toISOString(),
  });
}

/**
 * The answer to a `subscribe` message: every event after `seq` is filtered by `topics` (the events up to it were
 * filtered by the previous subscription), so a client that reconnects with `since` and these topics misses nothing.
 */
export function subscribedFrame(o: { seq: number; topics: Subscription; now: Date }): string {
  return JSON.stringify({ type: 'subscribed', seq: o.seq, topics: o.topics, at: o.now.toISOString() });
}

/** A client message the server could not act on; the connection and its subscription stay as they were. */
export function errorFrame(error: 'invalid_message' | 'invalid_subscription', detail: string): string {
  return JSON.stringify({ type: 'error', error, detail });
}

/** Client messages: `{"type":"subscribe","topics":[…] | null}` replaces the connection's subscription. */
export function parseClientMessage(
  text: string,
): { ok: true; subscription: Subscription } | { ok: false; error: 'invalid_message' | 'invalid_subscription'; detail: string } {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return { ok: false, error: 'invalid_message', detail: 'a client message is a JSON object' };
  }
  if (typeof m !== 'object' || m === null || (m as { type?: unknown }).type !== 'subscribe' || !('topics' in m))
    return { ok: false, error: 'invalid_message', detail: 'the one client message is {"type":"subscribe","topics":[…]}' };
  const parsed = parseSubscription((m as { topics: unknown }).topics);
  return parsed.ok ? parsed : { ok: false, error: 'invalid_subscription', detail: parsed.error };
}

export type GapReason = 'retention' | 'unknown_seq';

/**
 * Events after `afterSeq` are gone (older than the retention window) or the seq was never issued here: the client
 * resyncs from REST (`/api/v1/live`, `/api/v1/signals`, `/api/v1/probe`), and frames from `resumeSeq` on follow.
 */
export function gapFrame(o: { afterSeq: number; resumeSeq: number; reason: GapReason }): string {
  return JSON.stringify({ type: 'gap', after_seq: o.afterSeq, resume_seq: o.resumeSeq, reason: o.reason, resync: 'rest' });
}

export function heartbeatFrame(headSeq: number, now: Date): string {
  return JSON.stringify({ type: 'heartbeat', seq: headSeq, at: now.toISOString() });
}

/** `since` as sent: absent (live from now), or the last seq the client holds. */
export function parseSince(raw: string | null): { ok: true; since: number | null } | { ok: false } {
  if (raw === null) return { ok: true, since: null };
  if (!/^\d{1,16}$/.test(raw)) return { ok: false };
  const n = Number(raw);
  return Number.isSafeInteger(n) ? { ok: true, since: n } : { ok: false };
}

/**
 * Where a connection starts. `since` null → live from the head. Otherwise every event after `since` must still be
 * in the log (complete above `prunedThrough`), whichever process answers, and is sent from this process's ring when
 * it holds them (complete above `ringFloor`). A `since` above anything the database ever issued is a gap too (a
 * restored or different database).
 */
export type ResumePlan = { from: 'live' } | { from: 'ring' } | { from: 'log' } | { from: 'gap'; reason: GapReason };

export function resumePlan(o: { since: number | null; ringFloor: number; prunedThrough: number; lastDrawn: number; head: number }): ResumePlan {
  if (o.since === null) return { from: 'live' };
  if (o.since > Math.max(o.lastDrawn, o.head)) return { from: 'gap', reason: 'unknown_seq' };
  if (o.since < o.prunedThrough) return { from: 'gap', reason: 'retention' };
  return o.since >= o.ringFloor ? { from: 'ring' } : { from: 'log' };
}
