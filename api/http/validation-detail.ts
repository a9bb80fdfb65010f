import { cut, echoInput } from './safe-input';
import { MalformedNumber } from './strict-numbers';

/**
 * Maps express-openapi-validator's errors to the spec's 422 body:
 * `{"detail":[{"loc":["query","limit"],"msg":"…","type":"…","input":…,"ctx":{…}}]}`.
 * `input` follows safe-input.ts: never a secret, never large.
 */
export type ValidationItem = { loc: (string | number)[]; msg: string; type: string; input?: unknown; ctx?: Record<string, unknown> };

type ValidatorItem = { path?: string; message?: string; errorCode?: string };
type RequestParts = { query?: unknown; params?: unknown; body?: unknown; headers?: unknown; openapi?: { pathParams?: unknown } };

const SECTION: Record<string, string> = { query: 'query', params: 'path', path: 'path', body: 'body', headers: 'header', header: 'header' };

/** `.query.limit` → ["query","limit"]; `.body.items.0.name` → ["body","items",0,"name"]; `/body/x` also accepted. */
export function locFromPath(path: string | undefined): (string | number)[] {
  if (!path) return ['body'];
  const parts = path.split(/[./]/).filter((p) => p !== '');
  const out: (string | number)[] = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/^\[|\]$/g, '')));
  if (typeof out[0] === 'string' && SECTION[out[0]]) out[0] = SECTION[out[0]]!;
  return out;
}

function lookup(req: RequestParts, loc: (string | number)[]): unknown {
  const [section, ...rest] = loc;
  // Path parameters as the validator matched them (Express resets req.params once its router has finished).
  const params = req.openapi?.pathParams ?? req.params;
  let v: unknown =
    section === 'query' ? req.query : section === 'path' ? params : section === 'body' ? req.body : section === 'header' ? req.headers : undefined;
  for (const k of rest) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

const BOUNDS: [RegExp, string, string][] = [
  [/must be <= (-?[\d.e+-]+)/, 'less_than_equal', 'le'],
  [/must be >= (-?[\d.e+-]+)/, 'greater_than_equal', 'ge'],
  [/must be < (-?[\d.e+-]+)/, 'less_than', 'lt'],
  [/must be > (-?[\d.e+-]+)/, 'greater_than', 'gt'],
];

function classify(code: string, msg: string, input: unknown): { type: string; ctx?: Record<string, unknown> } {
  const keyword = code.split('.')[0] ?? '';
  for (const [re, type, key] of BOUNDS) {
    const m = re.exec(msg);
    if (m && (keyword === 'maximum' || keyword === 'minimum' || keyword === 'exclusiveMaximum' || keyword === 'exclusiveMinimum')) {
      return { type, ctx: { [key]: Number(m[1]) } };
    }
  }
  switch (keyword) {
    case 'required':
      return { type: 'missing' };
    case 'type': {
      const want = /must be (\w+)/.exec(msg)?.[1];
      const map: Record<string, string> = {
        integer: 'int_parsing',
        number: 'float_parsing',
        boolean: 'bool_parsing',
        string: 'string_type',
        object: 'model_type',
        array: 'list_type',
      };
      return { type: (want && map[want]) || 'type_error', ctx: want ? { expected: want } : undefined };
    }
    case 'enum':
      return { type: 'enum', ctx: { expected: msg.replace(/^must be equal to one of the allowed values:?\s*/, '') } };
    case 'pattern':
      return { type: 'string_pattern_mismatch', ctx: { pattern: /"(.*)"/.exec(msg)?.[1] } };
    case 'maxLength':
      return { type: 'string_too_long', ctx: { max_length: Number(/(\d+)/.exec(msg)?.[1]) } };
    case 'minLength':
      return {
        type: typeof input === 'string' && input.length === 0 ? 'string_too_short' : 'string_too_short',
        ctx: { min_length: Number(/(\d+)/.exec(msg)?.[1]) },
      };
    case 'maxItems':
      return { type: 'too_long', ctx: { max_length: Number(/(\d+)/.exec(msg)?.[1]) } };
    case 'minItems':
      return { type: 'too_short', ctx: { min_length: Number(/(\d+)/.exec(msg)?.[1]) } };
    case 'maxProperties':
      return { type: 'too_long' };
    case 'additionalProperties':
      return { type: 'extra_forbidden' };
    case 'format':
      return { type: 'value_error', ctx: { format: /"(.*)"/.exec(msg)?.[1] } };
    default:
      return { type: keyword || 'value_error' };
  }
}

export function toValidationDetail(errors: ValidatorItem[], req: RequestParts): ValidationItem[] {
  const items = errors.map((e) => {
    let loc = locFromPath(e.path);
    const msg = e.message ?? 'invalid value';
    // "must have required property 'x'" points at the parent object; point at the missing field instead.
    const missing = /required property '([^']+)'/.exec(msg)?.[1];
    if (missing && loc[loc.length - 1] !== missing) loc = [...loc, missing];
    const input = lookup(req, loc);
    const { type, ctx } = classify(e.errorCode ?? '', msg, input);
    const item: ValidationItem = { loc, msg: input instanceof MalformedNumber ? input.message : msg, type };
    if (input !== undefined && type !== 'missing') item.input = input;
    if (ctx) item.ctx = Object.fromEntries(Object.entries(ctx).filter(([, v]) => v !== undefined && !(typeof v === 'number' && Number.isNaN(v))));
    return item;
  });
  return safeDetail(items.length ? items : [{ loc: ['request'], msg: 'invalid request', type: 'value_error' }]);
}

/** Every 422 item as it may leave the service: names and messages cut short, `input` only where safe-input.ts allows. */
export function safeDetail(items: readonly ValidationItem[]): ValidationItem[] {
  return items.map(({ input, ...item }) => {
    const loc = item.loc.map((l) => (typeof l === 'string' ? cut(l, 128) : l));
    const out: ValidationItem = { ...item, loc, msg: cut(item.msg) };
    const echoed = input === undefined ? undefined : echoInput(item.loc, input);
    if (echoed !== undefined) out.input = echoed;
    return out;
  });
}
