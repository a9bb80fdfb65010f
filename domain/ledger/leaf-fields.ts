import { canonicalJson, type CanonicalValue } from '../digest/canonical-json';
import { sha256Utf8 } from '../digest/ledger-digest';

/**
 * What every leaf format is made of, and the field encoders all leaf versions share. A leaf's payload is
 * a flat JSON object whose values are only strings, safe integers and null, never a JSON number with a
 * fraction: a non-integer is written as a decimal string (see `decimalText`). Every language's JSON library
 * then reads and re-writes the payload byte for byte (Python's `json` writes `1e-07` where JCS writes `1e-7`,
 * but both write an integer or a string the same way), and a verifier never has to re-format a float.
 */
export type LeafValue = string | number | null;
export type LeafObject = Readonly<Record<string, LeafValue>>;

/** A leaf ready for the tree: its canonical payload, that payload's SHA-256, and the keys the order needs. */
export type LedgerLeaf = {
  track: string;
  leafVersion: number;
  id: number;
  predictedAt: Date;
  /** The canonical JSON text; the leaf hash is SHA-256 of its UTF-8 bytes. */
  payload: string;
  hash: Uint8Array;
};

/** One frozen leaf version: its fields in canonical (sorted) order and how one is built. */
export type LeafFormat<Input> = {
  readonly track: string;
  readonly version: number;
  readonly fields: readonly string[];
  /**
   * The field holding the leaf's time (the one that picks the hour and orders the tree): `predicted_at` unless
   * named (perps v1, frozen before it joined the ledger, calls it `detected_at`).
   */
  readonly timeField?: string;
  build(input: Input): LedgerLeaf;
};

/** The name of the field holding a leaf's time, in any version. */
export const leafTimeField = (format: Pick<LeafFormat<unknown>, 'timeField'>): string => format.timeField ?? 'predicted_at';

export class LeafFieldError extends RangeError {
  override readonly name = 'LeafFieldError';
}

/** Freezes a field list and checks it is in canonical order (what a reader of the docs sees in the bytes). */
export function fieldList(...fields: string[]): readonly string[] {
  const sorted = [...fields].sort();
  if (sorted.some((f, i) => f !== fields[i] || (i > 0 && f === sorted[i - 1]))) throw new Error('leaf fields must be listed sorted and unique');
  return Object.freeze(fields);
}

/** Serialises a leaf object after checking it has exactly the version's fields, and hashes it. */
export function sealLeaf(format: { track: string; version: number; fields: readonly string[] }, id: number, predictedAt: Date, leaf: LeafObject): LedgerLeaf {
  const keys = Object.keys(leaf).sort();
  if (keys.length !== format.fields.length || keys.some((k, i) => k !== format.fields[i])) {
    throw new Error(`leaf ${format.track} v${format.version} must have exactly the fields ${format.fields.join(', ')}`);
  }
  const payload = canonicalJson(leaf as CanonicalValue);
  return { track: format.track, leafVersion: format.version, id, predictedAt: new Date(predictedAt.getTime()), payload, hash: sha256Utf8(payload) };
}

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A UTC instant as `YYYY-MM-DDTHH:mm:ss.sssZ` (always milliseconds, always `Z`); years 0000–9999. */
export function isoMillis(d: Date, field: string): string {
  const t = d instanceof Date ? d.getTime() : NaN;
  if (!Number.isFinite(t)) throw new LeafFieldError(`${field}: not a valid date`);
  const s = d.toISOString();
  if (!ISO_MILLIS.test(s)) throw new LeafFieldError(`${field}: year outside 0000–9999`);
  return s;
}

/**
 * A non-integer quantity as text: ECMAScript Number::toString of the stored double, the shortest decimal that
 * reads back as exactly that double (e.g. `"0.7345123456"`, `"1e-7"`, `"123.5"`). Lossless, where fixed decimals
 * or integer micro-units would round (and JavaScript and Python break rounding ties differently); any
 * correctly rounded parser (Python's `float()`) gets the identical double back, so a payload's value can be
 * compared exactly with the number the API served. -0 is written `"0"`, as Number::toString writes it.
 */
export function decimalText(n: number, field: string, range: { min?: number; max?: number } = {}): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new LeafFieldError(`${field}: not a finite number`);
  if (range.min !== undefined && n < range.min) throw new LeafFieldError(`${field}: below ${range.min}`);
  if (range.max !== undefined && n > range.max) throw new LeafFieldError(`${field}: above ${range.max}`);
  return String(n);
}

export function decimalTextOrNull(n: number | null, field: string, range: { min?: number; max?: number } = {}): string | null {
  return n === null ? null : decimalText(n, field, range);
}

/** A JSON integer, within ±(2^53 − 1) so every JSON reader holds it exactly. */
export function safeInteger(n: number, field: string, range: { min?: number; max?: number } = {}): number {
  if (!Number.isSafeInteger(n)) throw new LeafFieldError(`${field}: not a safe integer`);
  if (range.min !== undefined && n < range.min) throw new LeafFieldError(`${field}: below ${range.min}`);
  if (range.max !== undefined && n > range.max) throw new LeafFieldError(`${field}: above ${range.max}`);
  // +0 only: the canonical form refuses -0.
  return n === 0 ? 0 : n;
}

export function oneOf<T extends string | number>(value: T, allowed: readonly T[], field: string): T {
  if (!allowed.includes(value)) throw new LeafFieldError(`${field}: must be one of ${allowed.join(', ')}`);
  return value;
}

/** Printable ASCII only (mints, versions, tiers): every JSON library writes it the same, no Unicode questions. */
export function asciiText(s: string, field: string, maxLength = 128): string {
  if (typeof s !== 'string' || s.length === 0 || s.length > maxLength || !/^[\x20-\x7e]+$/.test(s)) {
    throw new LeafFieldError(`${field}: 1–${maxLength} printable ASCII characters`);
  }
  return s;
}
