// Keeps openapi.yaml in step with the endpoint tables of section 4 of the product spec.
// The Inputs column is parsed from its phrasing (not copied here), so a change in the spec fails this test.
import fs from 'fs';
import path from 'path';
import { parse } from 'yaml';
import { SHARED_DATA } from '../../support/test-env';

const SPEC_PATH = path.join(SHARED_DATA, '..', 'spec', 'launchpad-prediction-api.md');
const OPENAPI_PATH = path.resolve(__dirname, '../../../openapi.yaml');

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const KEYED_SECURITY = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
// Audit trails anyone may read: keyed operations that also answer without a key (the empty requirement first).
const KEY_OPTIONAL = new Set(['GET /api/v1/composite_ledger']);
const CAPABILITIES = ['mint-pipeline', 'models', 'signals', 'wallets', 'webhooks', 'ledger', 'accuracy', 'paper', 'perps', 'paid-access', 'burns'];
// Statuses that carry no body by definition.
const BODILESS_STATUSES = new Set(['204', '304']);

type TableKind = 'keyed' | 'public' | 'payment';
type ParamType = 'integer' | 'number' | 'string' | 'boolean';

interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  type: ParamType;
  minimum?: number;
  maximum?: number;
  default?: string | number | boolean;
  enum?: string[];
  length?: number;
  optional: boolean;
}

interface BodySpec {
  required: boolean;
  fields: string[];
}

interface InputSpec {
  params: ParamSpec[];
  body?: BodySpec;
  authHeaders: boolean;
}

interface EndpointRow {
  table: TableKind;
  method: string;
  path: string;
  inputs: string;
}

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------------
// Spec parsing

function sectionFour(markdown: string): string {
  const start = markdown.search(/^## 4\. Endpoints\s*$/m);
  if (start < 0) throw new Error('spec has no "## 4. Endpoints" section');
  const rest = markdown.slice(start + 1);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

function tableKind(heading: string): TableKind {
  if (/keyed/i.test(heading)) return 'keyed';
  if (/public/i.test(heading)) return 'public';
  if (/payment/i.test(heading)) return 'payment';
  throw new Error(`unrecognised endpoint table heading: ${heading}`);
}

function splitRow(line: string): string[] {
  const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
  return cells.map((c) => c.trim());
}

function parseEndpointTables(markdown: string): { headings: string[]; rows: EndpointRow[] } {
  const section = sectionFour(markdown);
  const headings: string[] = [];
  const rows: EndpointRow[] = [];
  for (const block of section.split(/^### /m).slice(1)) {
    const heading = block.split('\n', 1)[0] ?? '';
    const tableLines = block.split('\n').filter((l) => l.trim().startsWith('|'));
    if (tableLines.length === 0) continue;
    const kind = tableKind(heading);
    headings.push(heading);
    const header = splitRow(tableLines[0] ?? '').join(' | ');
    if (header !== 'Method | Path | Inputs | Behavior') throw new Error(`unexpected table header: ${header}`);
    for (const line of tableLines.slice(2)) {
      const cells = splitRow(line);
      if (cells.length !== 4) throw new Error(`row does not have 4 cells: ${line}`);
      const [method = '', p = '', inputs = ''] = cells;
      rows.push({ table: kind, method: method.toUpperCase(), path: p, inputs });
    }
  }
  return { headings, rows };
}

function templateParams(p: string): string[] {
  return [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
}

function typeWord(word: string): ParamType {
  switch (word.toLowerCase()) {
    case 'int':
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'string';
  }
}

// An enum item phrased "the X" (e.g. "the service") names the value `X`.
function enumItem(item: string): string {
  const m = /^the\s+(\S+)$/i.exec(item);
  return m?.[1] ?? item;
}

function coerceDefault(raw: string, type: ParamType): string | number | boolean {
  if (type === 'integer' || type === 'number') {
    const n = Number(raw);
    if (Number.isNaN(n)) throw new Error(`non-numeric default "${raw}" for a ${type}`);
    return n;
  }
  if (type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw new Error(`non-boolean default "${raw}"`);
    return raw === 'true';
  }
  return raw;
}

function parseParamSegment(segment: string, templateNames: string[]): ParamSpec {
  let rest = segment.trim();
  let location: 'query' | 'path' = 'query';
  const loc = /^(path|query)\b\s*/i.exec(rest);
  if (loc) {
    location = (loc[1] ?? '').toLowerCase() as 'query' | 'path';
    rest = rest.slice(loc[0].length);
  }
  let name: string;
  const named = /^`([A-Za-z_][A-Za-z0-9_]*)`\s*/.exec(rest);
  if (named) {
    name = named[1] ?? '';
    rest = rest.slice(named[0].length);
  } else if (location === 'path' && templateNames.length === 1) {
    name = templateNames[0] ?? '';
  } else {
    throw new Error(`cannot tell the parameter name in "${segment}"`);
  }
  if (templateNames.includes(name)) location = 'path';

  let type: ParamType | undefined;
  const typed = /^(int|integer|number|string|boolean)\b\s*/i.exec(rest);
  if (typed) {
    type = typeWord(typed[1] ?? '');
    rest = rest.slice(typed[0].length);
  }

  const spec: Partial<ParamSpec> = { name, in: location, optional: /\boptional\b/i.test(rest) };

  const num = '(-?\\d+(?:\\.\\d+)?)';
  const range = new RegExp(`${num}\\s*\\.\\.\\s*${num}`).exec(rest);
  if (range) {
    spec.minimum = Number(range[1]);
    spec.maximum = Number(range[2]);
  }
  const atLeast = new RegExp(`>=\\s*${num}`).exec(rest);
  if (atLeast) spec.minimum = Number(atLeast[1]);
  const atMost = new RegExp(`<=\\s*${num}`).exec(rest);
  if (atMost) spec.maximum = Number(atMost[1]);

  const length = /\b(\d+)-char\b/i.exec(rest);
  if (length) spec.length = Number(length[1]);

  const def = /\bdefault\s+([^\s,;]+)/i.exec(rest);

  // "A, B or C" (optionally after "matching"), before any ", default ...".
  const listPart = rest
    .replace(/,?\s*\bdefault\b.*$/i, '')
    .replace(/^matching\s+/i, '')
    .trim();
  if (!range && /\s+or\s+/.test(listPart)) {
    spec.enum = listPart
      .split(/\s*,\s*|\s+or\s+/)
      .map((s) => enumItem(s.trim()))
      .filter((s) => s.length > 0);
  }

  if (!type) {
    if (spec.enum || spec.length !== undefined) type = 'string';
    else throw new Error(`cannot tell the type of "${segment}"`);
  }
  spec.type = type;
  if (def) spec.default = coerceDefault(def[1] ?? '', type);
  return spec as ParamSpec;
}

function parseInputs(inputs: string, apiPath: string): InputSpec {
  const text = inputs.trim();
  const templateNames = templateParams(apiPath);
  const result: InputSpec = { params: [], authHeaders: /\bauth(?:entication)? headers?\b/i.test(text) };
  if (/^none$/i.test(text) || result.authHeaders) return result;
  if (/\bJSON\b/.test(text)) {
    const beforeJson = text.slice(0, text.search(/\bJSON\b/));
    const fields = [...text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1] ?? '');
    result.body = { required: !/\boptional\b/i.test(beforeJson), fields };
    return result;
  }
  const withoutNotes = text.replace(/\([^)]*\)/g, ' ');
  for (const segment of withoutNotes.split(';')) {
    if (segment.trim().length === 0) continue;
    result.params.push(parseParamSegment(segment, templateNames));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI helpers

const doc = parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Json;
const { headings, rows } = parseEndpointTables(fs.readFileSync(SPEC_PATH, 'utf8'));

function deref(value: unknown, seen: string[] = []): Json {
  if (value && typeof value === 'object' && '$ref' in value) {
    const ref = String((value as Json).$ref);
    if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
    if (seen.includes(ref)) throw new Error(`circular $ref: ${ref}`);
    let node: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      node = (node as Json | undefined)?.[key];
    }
    if (node === undefined) throw new Error(`unresolved $ref: ${ref}`);
    return deref(node, [...seen, ref]);
  }
  return (value ?? {}) as Json;
}

interface Operation {
  path: string;
  method: string;
  op: Json;
  params: Json[];
}

function allOperations(): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const out: Operation[] = [];
  for (const [p, item] of Object.entries(paths)) {
    const shared = ((item.parameters ?? []) as unknown[]).map((x) => deref(x));
    for (const method of HTTP_METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const own = ((op.parameters ?? []) as unknown[]).map((x) => deref(x));
      out.push({ path: p, method: method.toUpperCase(), op, params: [...shared, ...own] });
    }
  }
  return out;
}

function findOperation(method: string, p: string): Operation | undefined {
  return allOperations().find((o) => o.method === method && o.path === p);
}

function paramSchema(param: Json): Json {
  return deref(param.schema);
}

// Accommodations for the published clients (README, "Accommodations for existing clients"): an operation the spec does
// not list is allowed only as a documented `x-compat` extra route, and an enum value beyond the spec's only as a
// documented alias of one of the spec's values (`x-compat-aliases` on the parameter).
function isCompatExtra(o: Operation): boolean {
  const compat = o.op['x-compat'] as Json | undefined;
  return compat?.kind === 'extra-route';
}

// An operation the product added beyond the spec's tables (a documented extension): public, outside the spec's paths,
// with `x-extension` saying why, so the spec's operations stay exactly as listed and every addition is deliberate.
function isExtension(o: Operation): boolean {
  return typeof o.op['x-extension'] === 'string';
}

function compatAliases(param: Json | undefined): Record<string, string> {
  return (param?.['x-compat-aliases'] ?? {}) as Record<string, string>;
}

// ---------------------------------------------------------------------------------------------------------------
// Tests

describe('input-column parser', () => {
  it('reads ranges, defaults and types', () => {
    expect(parseInputs('query `limit` int 1..200 default 60; `min_prob` number 0..1 default 0.0', '/x').params).toEqual([
      { name: 'limit', in: 'query', type: 'integer', minimum: 1, maximum: 200, default: 60, optional: false },
      { name: 'min_prob', in: 'query', type: 'number', minimum: 0, maximum: 1, default: 0, optional: false },
    ]);
  });

  it('reads enums, lower bounds and path parameters', () => {
    expect(parseInputs('`tier` string ACT, WATCH, SCOUT or all, default all (all = ACT)', '/x').params).toEqual([
      { name: 'tier', in: 'query', type: 'string', enum: ['ACT', 'WATCH', 'SCOUT', 'all'], default: 'all', optional: false },
    ]);
    expect(parseInputs('`since` int >= 0 default 0 (0 returns the last hour)', '/x').params[0]).toMatchObject({
      type: 'integer',
      minimum: 0,
      default: 0,
    });
    expect(parseInputs('path integer >= 1', '/w/{webhook_id}').params).toEqual([
      { name: 'webhook_id', in: 'path', type: 'integer', minimum: 1, optional: false },
    ]);
    expect(parseInputs('path 12-char prefix', '/w/{short}').params[0]).toMatchObject({ name: 'short', type: 'string', length: 12 });
  });

  it('reads bodies and "none"', () => {
    expect(parseInputs('none', '/x')).toEqual({ params: [], authHeaders: false });
    expect(parseInputs('optional JSON object', '/x').body).toEqual({ required: false, fields: [] });
    expect(parseInputs('JSON `link_id`, `signature`', '/x').body).toEqual({ required: true, fields: ['link_id', 'signature'] });
  });
});

describe('spec section 4 endpoint tables', () => {
  it('has the keyed, public and payment tables with 50 operations in all', () => {
    expect(headings.map(tableKind).sort()).toEqual(['keyed', 'payment', 'public']);
    expect(rows).toHaveLength(50);
    const keys = rows.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(rows.length);
  });

  it('openapi.yaml has exactly the spec operations, no more, beside documented extra routes for published clients', () => {
    const specKeys = rows.map((r) => `${r.method} ${r.path}`).sort();
    const docKeys = allOperations()
      .filter((o) => !isCompatExtra(o) && !isExtension(o))
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(docKeys).toEqual(specKeys);
  });

  it('documents each extension operation: why, public, outside the spec paths', () => {
    const extensions = allOperations().filter(isExtension);
    for (const o of extensions) {
      const at = `${o.method} ${o.path}`;
      expect({ at, why: (o.op['x-extension'] as string).length > 20 }).toEqual({ at, why: true });
      expect({ at, security: o.op.security }).toEqual({ at, security: [] });
      expect({ at, inSpec: rows.some((r) => r.path === o.path) }).toEqual({ at, inSpec: false });
    }
    expect(extensions.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /api/base_rates']);
  });

  it('documents each extra route: the clients that need it, public, outside the spec paths', () => {
    const extras = allOperations().filter(isCompatExtra);
    for (const o of extras) {
      const at = `${o.method} ${o.path}`;
      const compat = o.op['x-compat'] as Json;
      expect({ at, clients: Array.isArray(compat.clients) && (compat.clients as unknown[]).length > 0 }).toEqual({ at, clients: true });
      expect({ at, described: typeof o.op.description === 'string' && /published/i.test(o.op.description) }).toEqual({ at, described: true });
      expect({ at, security: o.op.security }).toEqual({ at, security: [] });
      expect({ at, inSpec: rows.some((r) => r.path === o.path) }).toEqual({ at, inSpec: false });
    }
    expect(extras.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /health']);
  });

  describe.each(rows.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_label, row) => {
    const spec = parseInputs(row.inputs, row.path);

    it('exists in openapi.yaml', () => {
      expect(findOperation(row.method, row.path)).toBeDefined();
    });

    it('has the security its table implies', () => {
      const { op } = findOperation(row.method, row.path) as Operation;
      const keyed = row.table === 'keyed' || (row.table === 'payment' && spec.authHeaders);
      const optional = KEY_OPTIONAL.has(`${row.method} ${row.path}`);
      expect(op.security).toEqual(keyed ? (optional ? [{}, ...KEYED_SECURITY] : KEYED_SECURITY) : []);
    });

    it('declares every path template variable as a required path parameter', () => {
      const { params } = findOperation(row.method, row.path) as Operation;
      const declared = params.filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort()).toEqual(templateParams(row.path).sort());
      for (const p of declared) expect(p.required).toBe(true);
    });

    it('has the parameters of the Inputs column, with their types, bounds, defaults and enums', () => {
      const { params } = findOperation(row.method, row.path) as Operation;
      // A parameter beyond the spec's is allowed only as a documented extension: an optional query parameter
      // (`x-extension` says why) whose default keeps the spec's behaviour, so a client that never sends it sees the
      // operation exactly as the spec describes it.
      const extensions = params.filter((p) => p['x-extension'] !== undefined);
      for (const p of extensions) {
        expect({ name: p.name, in: p.in, required: p.required ?? false, why: typeof p['x-extension'] }).toEqual({
          name: p.name,
          in: 'query',
          required: false,
          why: 'string',
        });
        expect(paramSchema(p).default).toBeDefined();
      }
      const queryOrPath = params.filter((p) => (p.in === 'query' || p.in === 'path') && p['x-extension'] === undefined);
      if (spec.params.length === 0) {
        expect(queryOrPath).toEqual([]);
        return;
      }
      expect(queryOrPath.map((p) => `${String(p.in)}:${String(p.name)}`).sort()).toEqual(spec.params.map((p) => `${p.in}:${p.name}`).sort());
      for (const expected of spec.params) {
        const param = queryOrPath.find((p) => p.name === expected.name && p.in === expected.in);
        expect(param).toBeDefined();
        const schema = paramSchema(param as Json);
        const where = `${row.method} ${row.path} ${expected.in} ${expected.name}`;
        expect({ where, type: schema.type }).toEqual({ where, type: expected.type });
        if (expected.minimum !== undefined) expect({ where, minimum: schema.minimum }).toEqual({ where, minimum: expected.minimum });
        // A maximum the spec does not give would refuse values it allows: only the spec's own bound is admitted, and
        // where it gives none, at most the largest integer a JSON number carries exactly (the service clamps inside).
        const allowed = expected.maximum ?? (expected.type === 'integer' ? [undefined, Number.MAX_SAFE_INTEGER] : [undefined]);
        expect({ where, maximum: schema.maximum, exclusiveMaximum: schema.exclusiveMaximum }).toEqual({
          where,
          maximum: Array.isArray(allowed) ? (allowed.includes(schema.maximum as number | undefined) ? schema.maximum : allowed) : allowed,
          exclusiveMaximum: undefined,
        });
        if (expected.default !== undefined) expect({ where, default: schema.default }).toEqual({ where, default: expected.default });
        if (expected.enum !== undefined) {
          const aliases = compatAliases(param);
          const actual = Array.isArray(schema.enum) ? (schema.enum as string[]).filter((v) => !(v in aliases)).sort() : schema.enum;
          expect({ where, enum: actual }).toEqual({ where, enum: [...expected.enum].sort() });
          // An alias stands for one of the spec's values and is itself in the enum the validator checks.
          for (const [alias, of] of Object.entries(aliases)) {
            expect({ where, alias, of: expected.enum.includes(of), listed: (schema.enum as string[]).includes(alias) }).toEqual({
              where,
              alias,
              of: true,
              listed: true,
            });
          }
        } else {
          expect({ where, aliases: compatAliases(param) }).toEqual({ where, aliases: {} });
        }
        if (expected.length !== undefined) {
          expect({ where, minLength: schema.minLength, maxLength: schema.maxLength }).toEqual({
            where,
            minLength: expected.length,
            maxLength: expected.length,
          });
        }
        if (expected.in === 'query') expect({ where, required: param?.required ?? false }).toEqual({ where, required: false });
      }
    });

    it('has the request body of the Inputs column', () => {
      const { op } = findOperation(row.method, row.path) as Operation;
      if (!spec.body) {
        expect(op.requestBody).toBeUndefined();
        return;
      }
      const body = deref(op.requestBody);
      expect(Boolean(body.required)).toBe(spec.body.required);
      const content = (body.content ?? {}) as Record<string, Json>;
      const schema = deref(content['application/json']?.schema);
      expect(schema.type).toBe('object');
      const properties = Object.keys((schema.properties ?? {}) as Json);
      for (const field of spec.body.fields) expect(properties).toContain(field);
    });
  });
});

describe('documented enum aliases', () => {
  it('name a canonical value of their enum and are themselves listed in it', () => {
    const found: string[] = [];
    for (const { path: p, method, params } of allOperations()) {
      for (const param of params) {
        const schema = paramSchema(param);
        const aliases = compatAliases(param);
        for (const [alias, canonical] of Object.entries(aliases)) {
          found.push(`${method} ${p} ${String(param.name)}: ${alias} → ${canonical}`);
          const values = schema.enum as string[];
          expect(values).toContain(alias);
          expect(values).toContain(canonical);
          expect(canonical in aliases).toBe(false);
        }
      }
    }
    expect(found).toEqual(['GET /api/v1/wallets/leaderboard kind: graduate → service']);
  });
});

describe('every operation in openapi.yaml', () => {
  const operations = allOperations();

  it('has a unique operationId', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const [i, id] of ids.entries()) {
      expect({ at: `${operations[i]?.method} ${operations[i]?.path}`, id: typeof id }).toEqual({
        at: `${operations[i]?.method} ${operations[i]?.path}`,
        id: 'string',
      });
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s documents 422 when it takes input, and a schema for every response body',
    (_label, { path: p, op, params }) => {
      const responses = (op.responses ?? {}) as Record<string, unknown>;
      if (params.length > 0 || op.requestBody !== undefined) expect(Object.keys(responses)).toContain('422');
      for (const [status, raw] of Object.entries(responses)) {
        if (BODILESS_STATUSES.has(status)) continue;
        // The dashboard page is HTML; its errors are JSON like every other operation's.
        const mediaType = p === '/' && status.startsWith('2') ? 'text/html' : 'application/json';
        const response = deref(raw);
        const content = (response.content ?? {}) as Record<string, Json>;
        const schema = content[mediaType]?.schema;
        expect({ status, mediaType, hasSchema: schema !== undefined && schema !== null }).toEqual({
          status,
          mediaType,
          hasSchema: true,
        });
      }
    },
  );

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))('%s pairs x-capability with a 501 response', (_label, { op }) => {
    const capability = op['x-capability'];
    const has501 = Object.keys((op.responses ?? {}) as Json).includes('501');
    expect(has501).toBe(capability !== undefined);
    if (capability !== undefined) expect(CAPABILITIES).toContain(capability);
  });
});
