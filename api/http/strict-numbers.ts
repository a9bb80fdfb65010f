import type { RequestHandler } from 'express';
import type { Echoable } from './safe-input';

/**
 * Numbers in query and path parameters are decimal text: `42`, `-1.5`, `2.5e-3`. The validator's type coercion
 * (Ajv's `+value`) would also take `Infinity`, `1e309`, `0x10`, `0b11` and ` 5`, and a non-finite value then
 * passes every `maximum`. This runs between the validator's route matching and its schema check, for every
 * numeric parameter of every operation in openapi.yaml, and swaps a malformed value for a marker the schema
 * check rejects as the wrong type, so it is reported in the same 422 as every other bad parameter.
 */
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export type NumericType = 'integer' | 'number';

export function isWellFormedNumber(raw: string, type: NumericType): boolean {
  return (type === 'integer' ? INTEGER : NUMBER).test(raw) && Number.isFinite(Number(raw));
}

/** Stands in for a malformed number so the schema check fails on its type; echoed as the text the client sent. */
export class MalformedNumber implements Echoable {
  constructor(
    readonly raw: string,
    readonly type: NumericType,
  ) {}
  get message(): string {
    return this.type === 'integer' ? 'must be an integer written in decimal digits' : 'must be a finite number written in decimal';
  }
  echo(): string {
    return this.raw;
  }
  toJSON(): string {
    return this.raw;
  }
}

type NumericParameter = { name: string; in: 'query' | 'path'; type: NumericType };
type Doc = {
  paths: Record<string, Record<string, { parameters?: Param[] }>>;
  components?: { parameters?: Record<string, Param>; schemas?: Record<string, Schema> };
};
type Param = { $ref?: string; name?: string; in?: string; schema?: Schema };
type Schema = { $ref?: string; type?: string };

const deref = <T extends { $ref?: string }>(x: T, pool: Record<string, T> | undefined): T =>
  x.$ref ? deref(pool?.[x.$ref.split('/').pop()!] ?? ({} as T), pool) : x;

/** `GET /api/v1/runners` → its numeric query and path parameters, read once from the document. */
export function numericParameters(doc: Doc): Map<string, NumericParameter[]> {
  const table = new Map<string, NumericParameter[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const found: NumericParameter[] = [];
      for (const p of (op.parameters ?? []).map((x) => deref(x, doc.components?.parameters))) {
        const type = p.schema && deref(p.schema, doc.components?.schemas).type;
        if ((type === 'integer' || type === 'number') && (p.in === 'query' || p.in === 'path') && p.name) found.push({ name: p.name, in: p.in, type });
      }
      if (found.length) table.set(`${method.toUpperCase()} ${path}`, found);
    }
  }
  return table;
}

type Matched = { openapi?: { openApiRoute?: string; pathParams?: Record<string, unknown> } };

export function strictNumbers(table: Map<string, NumericParameter[]>): RequestHandler {
  return (req, _res, next) => {
    const o = (req as unknown as Matched).openapi;
    const params = o?.openApiRoute ? table.get(`${req.method} ${o.openApiRoute}`) : undefined;
    if (!params) return next();
    let query: Record<string, unknown> | undefined;
    for (const p of params) {
      const raw = p.in === 'query' ? (query ?? (req.query as Record<string, unknown>))[p.name] : o!.pathParams?.[p.name];
      // An empty value is the validator's own 422; arrays and objects fail its type check as they are.
      if (typeof raw !== 'string' || raw === '' || isWellFormedNumber(raw, p.type)) continue;
      if (p.in === 'path') o!.pathParams![p.name] = new MalformedNumber(raw, p.type);
      else query = { ...(query ?? (req.query as Record<string, unknown>)), [p.name]: new MalformedNumber(raw, p.type) };
    }
    // Express 5 parses req.query anew on every read; an own property keeps the marker for the validator.
    if (query) Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    next();
  };
}
