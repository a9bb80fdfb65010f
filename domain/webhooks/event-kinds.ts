/**
 * What a webhook delivers. A composite signal is delivered as the kind of its tier; an alert fire as its alert kind
 * (spec section 1), and only to subscriptions of the key that owns the rule. openapi.yaml repeats the list as
 * `EventKind`; a unit test keeps the two equal.
 */
export const SIGNAL_EVENT_KINDS = ['signal_act', 'signal_watch', 'signal_scout'] as const;
export const ALERT_EVENT_KINDS = ['grad_prob', 'vsol_burst', 'runner_dev', 'smart_in', 'runner_5x', 'runner_10x', 'wallet'] as const;
export const EVENT_KINDS = [...SIGNAL_EVENT_KINDS, ...ALERT_EVENT_KINDS] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

/**
 * Names a subscription may use besides the kinds: `signal` for every tier, and `smart_money_in`, the spec's example
 * name (section 6) for the smart-wallet alert, which the alert rules call `smart_in`.
 */
export const EVENT_GROUPS: Readonly<Record<string, readonly EventKind[]>> = {
  signal: SIGNAL_EVENT_KINDS,
  smart_money_in: ['smart_in'],
};

/**
 * Every kind, today's and any added later: stored as it is and matched at delivery, so a subscription to `*` is
 * never frozen to the kinds that existed when it was made.
 */
export const ALL_EVENTS = '*';
/** What a subscription stores: the kinds it selects, or `*` alone. */
export type StoredKind = EventKind | typeof ALL_EVENTS;

export type EventSelection = { ok: true; kinds: StoredKind[] } | { ok: false; unknown: string[] };

const isKind = (s: string): s is EventKind => (EVENT_KINDS as readonly string[]).includes(s);

/** `*` (kept as `*`) or a comma-separated list of kinds and groups, expanded to the kinds it selects (in EVENT_KINDS order). */
export function parseEventSelection(events: string): EventSelection {
  const names = events
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0] === ALL_EVENTS) return { ok: true, kinds: [ALL_EVENTS] };
  const unknown = names.filter((n) => !isKind(n) && !(n in EVENT_GROUPS));
  if (unknown.length || names.length === 0) return { ok: false, unknown: names.length ? unknown : [events] };
  const chosen = new Set<EventKind>(names.flatMap((n) => (isKind(n) ? [n] : EVENT_GROUPS[n]!)));
  return { ok: true, kinds: EVENT_KINDS.filter((k) => chosen.has(k)) };
}

export const signalEventKind = (tier: 'ACT' | 'WATCH' | 'SCOUT'): EventKind => `signal_${tier.toLowerCase()}` as EventKind;
export const isAlertEventKind = (s: string): s is AlertEventKind => (ALERT_EVENT_KINDS as readonly string[]).includes(s);

/** The kinds a stored selection delivers today (`*`: every kind there is now), for showing a subscription. */
export const selectedKinds = (stored: readonly string[]): EventKind[] =>
  stored.includes(ALL_EVENTS) ? [...EVENT_KINDS] : EVENT_KINDS.filter((k) => stored.includes(k));
