/**
 * What a 422 may echo as `input`. The value a client sent helps it find its mistake, but never when it is a
 * secret (a key, a signature, a token: it would land in client logs, proxies and screenshots), and never whole
 * when it is large or deeply nested (a 5,000-deep array cannot even be serialised).
 */

/** Field names whose values are secrets, wherever they appear in `loc` or inside an echoed object. */
const SECRET_NAME =
  /^(key|api_?key|x-api-key|authorization|cookie|password|passphrase|secret|signature|signature_b58|token|private_?key|seed|mnemonic)$|_(key|secret|token|signature)$/i;
/** An API key's shape, in any field. */
const KEY_SHAPE = /lp_live_/i;

export const MAX_ECHO_STRING = 256;
const MAX_ECHO_DEPTH = 4;
const MAX_ECHO_SIZE = 1024;

export const isSecretName = (name: string | number): boolean => typeof name === 'string' && SECRET_NAME.test(name);

/** A string cut to `max` characters, marked with an ellipsis when cut. */
export const cut = (s: string, max = MAX_ECHO_STRING): string => (s.length > max ? `${s.slice(0, max)}…` : s);

/** A raw value that can stand for itself in an error (e.g. a malformed number, echoed as the text the client sent). */
export type Echoable = { echo(): unknown };
const isEchoable = (v: unknown): v is Echoable => typeof v === 'object' && v !== null && typeof (v as Echoable).echo === 'function';

/**
 * The `input` to echo for the value at `loc`, or undefined to leave it out: secret fields and key-shaped strings
 * are left out, long strings cut, objects and arrays echoed only when small, shallow and free of secrets.
 */
export function echoInput(loc: readonly (string | number)[], value: unknown): unknown {
  if (loc.some(isSecretName)) return undefined;
  if (isEchoable(value)) value = value.echo();
  if (typeof value === 'string') return KEY_SHAPE.test(value) ? undefined : cut(value);
  if (value === null || typeof value !== 'object')
    return typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  const budget = { left: MAX_ECHO_SIZE };
  return smallAndClean(value, 0, budget) ? value : undefined;
}

/** Walks at most MAX_ECHO_DEPTH levels and MAX_ECHO_SIZE characters' worth; never recurses into what it would not echo. */
function smallAndClean(v: unknown, depth: number, budget: { left: number }): boolean {
  if (typeof v === 'string') {
    budget.left -= v.length + 2;
    return budget.left > 0 && !KEY_SHAPE.test(v);
  }
  if (v === null || typeof v !== 'object') {
    budget.left -= 8;
    return budget.left > 0;
  }
  if (depth >= MAX_ECHO_DEPTH) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (--budget.left <= 0 || !smallAndClean(x, depth + 1, budget)) return false;
    return true;
  }
  for (const k in v) {
    budget.left -= k.length + 3;
    if (budget.left <= 0 || isSecretName(k) || !smallAndClean((v as Record<string, unknown>)[k], depth + 1, budget)) return false;
  }
  return true;
}
