/**
 * Canonical JSON for ledger leaves and commit records: RFC 8785 (JCS) with stricter refusals.
 *
 * - Object members sorted by their names' UTF-16 code units (JavaScript's default sort), no whitespace.
 * - Strings as ECMAScript JSON.stringify writes them, which is exactly JCS: `\"`, `\\`, `\b \t \n \f \r`, other
 *   controls below U+0020 as `\u00xx` (lowercase hex), everything else (including `/`, U+007F, U+2028) as is.
 * - Numbers as ECMAScript Number::toString (JCS section 3.2.2.3), i.e. `JSON.stringify(n)`.
 * - Output is the UTF-8 encoding of that text (`canonicalBytes`).
 *
 * Refused with a `CanonicalJsonError` instead of silently rewritten (JCS or JSON.stringify would write null,
 * drop the member, or write `0`): NaN and ±Infinity, -0 (so the bytes never hide which zero was meant),
 * strings with a lone surrogate (I-JSON, which JCS builds on, forbids them), `undefined`, functions, symbols,
 * bigints, and any object that is not a plain object or array (a Date, a Map, a class instance: what it means
 * as JSON would depend on its `toJSON`, so the caller converts it explicitly). Nesting is capped, which also
 * refuses cycles.
 *
 * Why not the `canonicalize` npm package (RFC 8785's reference JavaScript implementation, by one of its
 * authors): it follows JSON.stringify's leniency (calls `toJSON`, writes -0 as 0, unwraps boxed primitives),
 * while leaf bytes must fail loudly on anything unexpected; with those checks in place little serialisation is
 * left to borrow (JSON.stringify does strings and numbers). It is also ES-module only (jest would need a
 * transform for it), and ledger bytes must never change with a dependency upgrade; the pinned-bytes tests
 * guard either way.
 */
export type CanonicalValue = null | boolean | number | string | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

export class CanonicalJsonError extends RangeError {
  override readonly name = 'CanonicalJsonError';
  constructor(
    message: string,
    /** Where in the value, as `$.a[2].b`. */
    readonly path: string,
  ) {
    super(`${message} at ${path}`);
  }
}

const MAX_DEPTH = 32;
const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A refusal on its way up; each container adds its own path segment, so success builds no paths at all. */
class Refusal {
  readonly segments: string[] = [];
  constructor(readonly reason: string) {}
}

export function canonicalJson(value: CanonicalValue): string {
  try {
    return write(value, 0);
  } catch (e) {
    if (e instanceof Refusal) throw new CanonicalJsonError(e.reason, `$${e.segments.reverse().join('')}`);
    throw e;
  }
}

export function canonicalBytes(value: CanonicalValue): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

function write(value: unknown, depth: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Refusal(`${value} has no JSON form`);
      if (Object.is(value, -0)) throw new Refusal('-0 is refused (JCS would write it as 0)');
      return JSON.stringify(value);
    case 'string':
      return writeString(value);
    case 'object':
      break;
    default:
      throw new Refusal(`a ${typeof value} has no JSON form`);
  }
  if (depth >= MAX_DEPTH) throw new Refusal(`nested deeper than ${MAX_DEPTH} (or cyclic)`);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + within(`[${i}]`, () => write(value[i], depth + 1));
    return `${out}]`;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new Refusal(`only plain objects and arrays are accepted, not ${proto?.constructor?.name ?? 'this object'}`);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out += `${i > 0 ? ',' : ''}${within('{key}', () => writeString(k))}:${within(`.${k}`, () => write(record[k], depth + 1))}`;
  }
  return `${out}}`;
}

function within(segment: string, serialise: () => string): string {
  try {
    return serialise();
  } catch (e) {
    if (e instanceof Refusal) e.segments.push(segment);
    throw e;
  }
}

function writeString(s: string): string {
  if (ANY_SURROGATE.test(s) && LONE_SURROGATE.test(s)) throw new Refusal('a string with a lone surrogate is refused');
  return JSON.stringify(s);
}
