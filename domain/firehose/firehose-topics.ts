/**
 * Topic subscriptions of the firehose: a client asks for the events it wants (by kind, mint, wallet, grad_prob
 * threshold) and the server sends only those, in seq order, resumable from a seq like the whole stream. Pure: the
 * connection asks `matches` of each frame, whose `FrameFacts` the hub extracts once per frame for every client.
 */

/** Every kind of event the log holds. */
export const FIREHOSE_KINDS = ['score', 'live', 'signal', 'alert', 'launch', 'graduation', 'buy'] as const;
export type FirehoseKind = (typeof FIREHOSE_KINDS)[number];

/**
 * What a connection without a subscription gets: the stream as it was before topics existed. New launches,
 * graduations and buys are opt-in (a buy is most of the log's volume).
 */
export const UNSUBSCRIBED_KINDS: readonly FirehoseKind[] = ['score', 'live', 'signal', 'alert'];

/**
 * One topic: an event matches when it passes every field the topic sets (fields left out match anything); a
 * subscription is a list of topics and delivers an event that matches any of them.
 */
export type FirehoseTopic = { kinds?: FirehoseKind[]; mints?: string[]; wallets?: string[]; min_grad_prob?: number };

/** null: no subscription (the unsubscribed stream). */
export type Subscription = FirehoseTopic[] | null;

export const TOPIC_LIMITS = { topics: 20, addresses: 100 } as const;

/** What the topics look at in a frame, extracted once per frame from its payload. */
export type FrameFacts = { kind: string; mints: string[]; wallet: string | null; gradProb: number | null };

const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

type Parsed = { ok: true; subscription: Subscription } | { ok: false; error: string };

/** Checks a subscription as sent (the `topics` query parameter's JSON, or a `subscribe` message's `topics`). */
export function parseSubscription(raw: unknown): Parsed {
  if (raw === null) return { ok: true, subscription: null };
  if (!Array.isArray(raw)) return { ok: false, error: 'topics must be an array of topic objects, or null' };
  if (raw.length === 0 || raw.length > TOPIC_LIMITS.topics) return { ok: false, error: `topics must hold 1 to ${TOPIC_LIMITS.topics} topics` };
  const topics: FirehoseTopic[] = [];
  for (const [i, t] of raw.entries()) {
    const where = `topics[${i}]`;
    if (typeof t !== 'object' || t === null || Array.isArray(t)) return { ok: false, error: `${where} must be an object` };
    const o = t as Record<string, unknown>;
    const unknown = Object.keys(o).filter((k) => !['kinds', 'mints', 'wallets', 'min_grad_prob'].includes(k));
    if (unknown.length) return { ok: false, error: `${where}: unknown field ${unknown[0]}` };
    const topic: FirehoseTopic = {};
    if (o.kinds !== undefined) {
      if (!Array.isArray(o.kinds) || !o.kinds.length || !o.kinds.every((k) => (FIREHOSE_KINDS as readonly unknown[]).includes(k)))
        return { ok: false, error: `${where}.kinds must be a non-empty list of ${FIREHOSE_KINDS.join(', ')}` };
      topic.kinds = [...new Set(o.kinds as FirehoseKind[])];
    }
    for (const field of ['mints', 'wallets'] as const) {
      const v = o[field];
      if (v === undefined) continue;
      if (!Array.isArray(v) || !v.length || v.length > TOPIC_LIMITS.addresses || !v.every((a) => typeof a === 'string' && ADDRESS.test(a)))
        return { ok: false, error: `${where}.${field} must be 1 to ${TOPIC_LIMITS.addresses} base58 addresses` };
      topic[field] = [...new Set(v as string[])];
    }
    if (o.min_grad_prob !== undefined) {
      const p = o.min_grad_prob;
      if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) return { ok: false, error: `${where}.min_grad_prob must be a number in [0, 1]` };
      topic.min_grad_prob = p;
    }
    topics.push(topic);
  }
  return { ok: true, subscription: topics };
}

/** The `topics` query parameter: absent means no subscription; present, a JSON array of topics. */
export function parseTopicsParam(raw: string | null): Parsed {
  if (raw === null) return { ok: true, subscription: null };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'topics must be JSON' };
  }
  if (json === null) return { ok: false, error: 'topics must be an array of topic objects' };
  return parseSubscription(json);
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The facts of one event, from its kind and payload as the log's triggers write them (openapi.yaml `x-firehose`). */
export function frameFacts(kind: string, payload: Record<string, unknown>): FrameFacts {
  const mint = str(payload.mint);
  switch (kind) {
    case 'score':
      return { kind, mints: mint ? [mint] : [], wallet: null, gradProb: num(payload.grad_prob) };
    case 'live': {
      const entered = Array.isArray(payload.entered) ? (payload.entered as Record<string, unknown>[]) : [];
      const left = Array.isArray(payload.left) ? (payload.left as unknown[]) : [];
      const probs = entered.map((e) => num(e?.grad_prob)).filter((p): p is number => p !== null);
      return {
        kind,
        mints: [...entered.map((e) => str(e?.mint)), ...left.map(str)].filter((m): m is string => m !== null),
        wallet: null,
        // A membership change passes a threshold when a mint entering the list is at or above it.
        gradProb: probs.length ? Math.max(...probs) : null,
      };
    }
    case 'signal': {
      const s = (payload.signal ?? {}) as Record<string, unknown>;
      const features = (s.features ?? {}) as Record<string, unknown>;
      const m = str(s.mint);
      return { kind, mints: m ? [m] : [], wallet: null, gradProb: num(features.gp_60) };
    }
    case 'launch':
      // The creator's wallet: a wallet topic follows what a wallet launches as well as what it buys.
      return { kind, mints: mint ? [mint] : [], wallet: str(payload.creator), gradProb: null };
    case 'buy':
      return { kind, mints: mint ? [mint] : [], wallet: str(payload.wallet), gradProb: null };
    default:
      return { kind, mints: mint ? [mint] : [], wallet: null, gradProb: null };
  }
}

/** A subscription as a predicate over frame facts (sets for the address lists: a topic may name a hundred). */
export function compileSubscription(subscription: Subscription): (f: FrameFacts) => boolean {
  if (subscription === null) return (f) => (UNSUBSCRIBED_KINDS as readonly string[]).includes(f.kind);
  const topics = subscription.map((t) => ({
    kinds: t.kinds ? new Set<string>(t.kinds) : null,
    mints: t.mints ? new Set(t.mints) : null,
    wallets: t.wallets ? new Set(t.wallets) : null,
    min: t.min_grad_prob ?? null,
  }));
  return (f) =>
    topics.some(
      (t) =>
        (!t.kinds || t.kinds.has(f.kind)) &&
        (!t.mints || f.mints.some((m) => t.mints!.has(m))) &&
        (!t.wallets || (f.wallet !== null && t.wallets.has(f.wallet))) &&
        (t.min === null || (f.gradProb !== null && f.gradProb >= t.min)),
    );
}
