import { canonicalJson, type CanonicalValue } from '../digest/canonical-json';
import { COMPOSITE_LEAF_V1 } from './composite-leaf';
import { GRAD_PROB_LEAF_V1 } from './grad-prob-leaf';
import { leafTimeField, type LeafFormat, type LeafValue } from './leaf-fields';
import { PROMOTION_LEAF_V1 } from './promotion-leaf';
import { SHADOW_LEAF_V1 } from './shadow-leaf';
import { VERDICT_LEAF_V1 } from './verdict-leaf';
import { PERPS_ENTRY_LEAF_V1 } from './perps-entry-leaf';

/**
 * The tracks the ledger commits, each with every leaf version it ever had and the one new leaves use.
 * Old versions stay here forever: commits made with them must keep verifying. A new track adds one entry;
 * a new leaf version adds one key and moves `current`.
 */
const track = <V extends Record<number, LeafFormat<any>>, C extends keyof V & number>(current: C, versions: V) =>
  Object.freeze({ current, versions: Object.freeze(versions) });

export const LEDGER_TRACKS = Object.freeze({
  grad_prob: track(1, { 1: GRAD_PROB_LEAF_V1 }),
  composite: track(1, { 1: COMPOSITE_LEAF_V1 }),
  verdict: track(1, { 1: VERDICT_LEAF_V1 }),
  // The perps observatory's smart-money entries (issue 22); v1 was committed on its own chain first (migration 0026).
  perps: track(1, { 1: PERPS_ENTRY_LEAF_V1 }),
  // Challenger model versions' forward scores, never served, and the promotion rule's decisions on them.
  shadow: track(1, { 1: SHADOW_LEAF_V1 }),
  promotion: track(1, { 1: PROMOTION_LEAF_V1 }),
});

export type LedgerTrack = keyof typeof LEDGER_TRACKS;
type CurrentFormat<T extends LedgerTrack> = (typeof LEDGER_TRACKS)[T]['versions'][(typeof LEDGER_TRACKS)[T]['current']];

/** Track names are short snake_case ASCII: they appear in memos and URLs unescaped. */
export const TRACK_NAME_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;

export function isLedgerTrack(name: unknown): name is LedgerTrack {
  return typeof name === 'string' && Object.hasOwn(LEDGER_TRACKS, name);
}

/** The format new leaves of `track` are built with. */
export function currentLeafFormat<T extends LedgerTrack>(name: T): CurrentFormat<T> {
  const t = LEDGER_TRACKS[name];
  return (t.versions as Record<number, unknown>)[t.current] as CurrentFormat<T>;
}

/** Any version ever registered, or null. */
export function leafFormat(name: string, version: number): LeafFormat<unknown> | null {
  if (!isLedgerTrack(name)) return null;
  const versions = LEDGER_TRACKS[name].versions as Record<number, LeafFormat<unknown>>;
  return Object.hasOwn(versions, version) ? versions[version]! : null;
}

export type ReadLeaf =
  { ok: true; track: LedgerTrack; leafVersion: number; leaf: Readonly<Record<string, LeafValue>>; timeField: string } | { ok: false; problem: string };

/**
 * Reads a leaf payload as a verifier must: canonical JSON (re-serialising it gives the same text, which also
 * rules out duplicate keys and whitespace), of a registered track and version, with exactly that version's
 * fields, holding only strings, safe integers and null.
 */
export function readLeafPayload(payload: string): ReadLeaf {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return { ok: false, problem: 'payload is not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, problem: 'payload is not a JSON object' };
  const leaf = parsed as Record<string, unknown>;
  for (const [k, v] of Object.entries(leaf)) {
    if (!(v === null || typeof v === 'string' || Number.isSafeInteger(v))) return { ok: false, problem: `field ${k} is not a string, a safe integer or null` };
  }
  let canonical: string;
  try {
    canonical = canonicalJson(leaf as CanonicalValue);
  } catch {
    canonical = ''; // -0 or a lone surrogate: values with no canonical form
  }
  if (canonical !== payload) return { ok: false, problem: 'payload is not in canonical form' };
  const format = leafFormat(String(leaf.track), Number(leaf.leaf_version));
  if (!format) return { ok: false, problem: `unknown leaf format ${String(leaf.track)} v${String(leaf.leaf_version)}` };
  const keys = Object.keys(leaf).sort();
  if (keys.length !== format.fields.length || keys.some((k, i) => k !== format.fields[i])) {
    return { ok: false, problem: `fields differ from ${format.track} v${format.version}` };
  }
  return {
    ok: true,
    track: format.track as LedgerTrack,
    leafVersion: format.version,
    leaf: leaf as Record<string, LeafValue>,
    timeField: leafTimeField(format),
  };
}
