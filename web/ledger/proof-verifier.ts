import { leafFields, leafTimeField } from './leaf-formats';

/**
 * Checks a ledger proof in the browser with Web Crypto, step by step as docs/ledger-format.md ("Proof") states
 * them, so a reader needs neither our server nor our code: the payload is a canonical leaf of a known format
 * predicted within the proof's hour; SHA-256 of its UTF-8 bytes is `leaf_hash`; the siblings have exactly the
 * sides `leaf_index` and `leaf_count` prescribe (a self-paired sibling equals the node); walking them arrives at
 * `merkle_root_hex`; and, given the published commit, track, hour, count and root equal it.
 */
export type ProofCommit = { track: string; hour: string; leafCount: number; rootHex: string };
export type ProofCheck = { step: string; ok: boolean; detail: string };
export type ProofResult = { ok: boolean; checks: ProofCheck[]; leaf: Record<string, string | number | null> | null };

type Sibling = { hash: string; side: 'left' | 'right' };
type ProofDoc = {
  track: string;
  leaf_version: number;
  hour: string;
  leaf_index: number;
  leaf_count: number;
  leaf_payload: string;
  leaf_hash: string;
  siblings: Sibling[];
  merkle_root_hex: string;
};

const HEX64 = /^[0-9a-f]{64}$/;
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** The sides of a path for leaf `index` of `count`, leaf to root, and which steps pair the node with itself. */
export function proofShape(index: number, count: number): { side: 'left' | 'right'; selfPaired: boolean }[] {
  const shape: { side: 'left' | 'right'; selfPaired: boolean }[] = [];
  for (let i = index, n = count; n > 1; i = Math.floor(i / 2), n = Math.ceil(n / 2)) {
    shape.push(i % 2 === 1 ? { side: 'left', selfPaired: false } : { side: 'right', selfPaired: i + 1 === n });
  }
  return shape;
}

function shapeProblem(p: Record<string, unknown>): string | null {
  const is = (k: string, t: string) => typeof p[k] === t;
  if (!is('track', 'string') || !is('hour', 'string') || !is('leaf_payload', 'string')) return 'track, hour and leaf_payload must be strings';
  for (const k of ['leaf_version', 'leaf_index', 'leaf_count']) if (!Number.isSafeInteger(p[k])) return `${k} must be an integer`;
  if ((p.leaf_count as number) < 1 || (p.leaf_index as number) < 0 || (p.leaf_index as number) >= (p.leaf_count as number)) {
    return 'leaf_index must lie in 0 … leaf_count − 1';
  }
  if (!HEX64.test(String(p.leaf_hash)) || !HEX64.test(String(p.merkle_root_hex))) return 'leaf_hash and merkle_root_hex must be 64 lowercase hex digits';
  if (!Array.isArray(p.siblings)) return 'siblings must be a list';
  for (const [i, s] of (p.siblings as unknown[]).entries()) {
    const sib = s as Partial<Sibling> | null;
    if (!sib || !HEX64.test(String(sib.hash)) || (sib.side !== 'left' && sib.side !== 'right'))
      return `sibling ${i} must be { hash: 64 hex, side: left | right }`;
  }
  return null;
}

/** The payload as a verifier must read it: canonical JSON of a known leaf format, or why not. */
function readLeaf(doc: ProofDoc): { leaf: Record<string, string | number | null> } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(doc.leaf_payload);
  } catch {
    return { problem: 'leaf_payload is not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: 'leaf_payload is not a JSON object' };
  const leaf = parsed as Record<string, unknown>;
  for (const [k, v] of Object.entries(leaf)) {
    if (!(v === null || typeof v === 'string' || Number.isSafeInteger(v))) return { problem: `field ${k} is not a string, a safe integer or null` };
    if (typeof v === 'string' && LONE_SURROGATE.test(v)) return { problem: `field ${k} holds a lone surrogate` };
    if (Object.is(v, -0)) return { problem: `field ${k} is -0` };
  }
  const keys = Object.keys(leaf).sort();
  const canonical = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(leaf[k])}`).join(',')}}`;
  if (canonical !== doc.leaf_payload) return { problem: 'leaf_payload is not canonical JSON (sorted members, no whitespace)' };
  const fields = leafFields(String(leaf.track), Number(leaf.leaf_version));
  if (!fields) return { problem: `unknown leaf format ${String(leaf.track)} v${String(leaf.leaf_version)}` };
  if (keys.length !== fields.length || keys.some((k, i) => k !== fields[i]))
    return { problem: `fields differ from ${String(leaf.track)} v${String(leaf.leaf_version)}` };
  if (leaf.track !== doc.track || leaf.leaf_version !== doc.leaf_version) return { problem: 'the payload names another track or leaf version than the proof' };
  return { leaf: leaf as Record<string, string | number | null> };
}

export async function verifyProof(input: unknown, commit?: ProofCommit): Promise<ProofResult> {
  const checks: ProofCheck[] = [];
  const done = (leaf: ProofResult['leaf'] = null): ProofResult => ({ ok: checks.every((c) => c.ok), checks, leaf });
  const check = (step: string, ok: boolean, detail: string) => (checks.push({ step, ok, detail }), ok);

  if (typeof crypto === 'undefined' || !crypto.subtle) {
    check('Web Crypto', false, 'this page has no Web Crypto: browsers offer it on https:// pages and on localhost only');
    return done();
  }
  const problem = input && typeof input === 'object' ? shapeProblem(input as Record<string, unknown>) : 'a proof is a JSON object';
  if (!check('proof document', problem === null, problem ?? 'has every field of the documented proof')) return done();
  const doc = input as ProofDoc;

  const read = readLeaf(doc);
  if (!check('leaf payload', 'leaf' in read, 'leaf' in read ? `canonical ${doc.track} v${doc.leaf_version} leaf` : read.problem)) return done();
  const leaf = (read as { leaf: Record<string, string | number | null> }).leaf;
  const hourStart = Date.parse(doc.hour);
  const timeField = leafTimeField(doc.track, doc.leaf_version);
  const at = Date.parse(String(leaf[timeField]));
  const inHour = HOUR.test(doc.hour) && at >= hourStart && at < hourStart + 3_600_000;
  if (!check('hour', inHour, inHour ? `${timeField} ${String(leaf[timeField])} lies in the hour ${doc.hour}` : `${timeField} lies outside the proof’s hour`))
    return done(leaf);

  let node = await sha256(new TextEncoder().encode(doc.leaf_payload));
  const leafHex = bytesToHex(node);
  if (
    !check(
      'leaf hash',
      leafHex === doc.leaf_hash,
      leafHex === doc.leaf_hash ? `SHA-256 of the payload is ${leafHex}` : `SHA-256 of the payload is ${leafHex}, not leaf_hash`,
    )
  )
    return done(leaf);

  const shape = proofShape(doc.leaf_index, doc.leaf_count);
  const sidesOk = doc.siblings.length === shape.length && shape.every((s, i) => doc.siblings[i]!.side === s.side);
  const sidesDetail = sidesOk
    ? `${shape.length} sibling${shape.length === 1 ? '' : 's'}, sides as leaf ${doc.leaf_index} of ${doc.leaf_count} prescribes`
    : `leaf ${doc.leaf_index} of ${doc.leaf_count} needs ${shape.length} siblings on the sides ${shape.map((s) => s.side).join(', ') || '(none)'}`;
  if (!check('path shape', sidesOk, sidesDetail)) return done(leaf);

  for (const [i, s] of doc.siblings.entries()) {
    if (shape[i]!.selfPaired && s.hash !== bytesToHex(node)) {
      check('path', false, `sibling ${i} pairs the node with itself and must equal it`);
      return done(leaf);
    }
    const pair = new Uint8Array(64);
    const sibling = hexToBytes(s.hash);
    pair.set(s.side === 'left' ? sibling : node, 0);
    pair.set(s.side === 'left' ? node : sibling, 32);
    node = await sha256(pair);
  }
  const rootHex = bytesToHex(node);
  const arrives = rootHex === doc.merkle_root_hex;
  if (!check('root', arrives, arrives ? `the path arrives at ${rootHex}` : `the path arrives at ${rootHex}, not merkle_root_hex`)) return done(leaf);

  if (commit) {
    // Hours compare as instants: the API writes `2026-11-24T05:00:00Z`, a Date writes `…T05:00:00.000Z`.
    const sameHour = Date.parse(commit.hour) === Date.parse(doc.hour);
    const same = commit.track === doc.track && sameHour && commit.leafCount === doc.leaf_count && commit.rootHex === doc.merkle_root_hex;
    check(
      'published commit',
      same,
      same ? `equals the ${commit.hour} commit (${commit.leafCount} leaves)` : 'track, hour, leaf count or root differ from the published commit',
    );
  }
  return done(leaf);
}
