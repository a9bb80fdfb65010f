/**
 * `npm run gen:config-doc`: docs/configuration.md, generated from the typed settings (platform/settings/*), so the
 * reference cannot drift from what the processes actually read. Each variable's row comes from its declaration:
 * the name, the default and the allowed values from its zod schema, the meaning from the doc comment above it.
 * `--check` writes nothing and fails when the committed page differs (run by `npm test`).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { z } from 'zod';
import { writeOrCheckGenerated } from './lib/generated-file';

const ROOT = path.resolve(__dirname, '..');
const SETTINGS_DIR = path.join(ROOT, 'platform/settings');
export const CONFIG_DOC_PATH = path.join(ROOT, 'docs/configuration.md');

type Row = { name: string; meaning: string; default: string; allowed: string };
type Area = { file: string; summary: string; rows: Row[] };

/** Doc comments of a settings file: the file's `defineSettings` summary and each variable's comment. */
function readComments(file: string): { summary: string; byName: Map<string, string>; shared: Set<string> } {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const byName = new Map<string, string>();
  const shared = new Set<string>();
  let summary = '';
  const commentOf = (node: ts.Node): string =>
    (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
      .map((r) => text.slice(r.pos, r.end))
      .filter((c) => c.startsWith('/**'))
      .map((c) =>
        c
          .replace(/^\/\*\*|\*\/$/g, '')
          .split('\n')
          .map((l) => l.replace(/^\s*\*\s?/, '').trim())
          .join(' ')
          .trim(),
      )
      .join(' ');
  const visit = (node: ts.Node): void => {
    if (ts.isVariableStatement(node)) summary = commentOf(node);
    if (ts.isCallExpression(node) && node.expression.getText(source) === 'defineSettings') {
      const shape = node.arguments[0];
      if (shape && ts.isObjectLiteralExpression(shape)) {
        for (const p of shape.properties) {
          if (!p.name) continue;
          const name = p.name.getText(source).replace(/['"]/g, '');
          byName.set(name, commentOf(p));
          // `X: otherSettings.env.X` reads a variable another area declares: it is listed there.
          if (ts.isPropertyAssignment(p) && /\.env\.[A-Z0-9_]+$/.test(p.initializer.getText(source))) shared.add(name);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { summary, byName, shared };
}

/** Unwraps optional/default/pipe layers down to the schema that says what values are accepted. */
function describeSchema(schema: z.ZodType): { default: string; allowed: string } {
  let s = schema as z.ZodType & { def: Record<string, unknown> };
  let dflt = '';
  for (let i = 0; i < 10; i++) {
    const def = s.def as { type: string; innerType?: z.ZodType; defaultValue?: unknown; in?: z.ZodType };
    if (def.type === 'default') {
      const v = typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
      dflt = Array.isArray(v) ? v.join(',') : String(v);
      s = def.innerType as typeof s;
    } else if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) s = def.innerType as typeof s;
    else if (def.type === 'pipe' && def.in) s = def.in as typeof s;
    else break;
  }
  const def = s.def as { type: string; entries?: Record<string, string>; checks?: { _zod: { def: Record<string, unknown> } }[]; format?: string };
  let allowed: string = def.type;
  if (def.type === 'enum' && def.entries) allowed = Object.values(def.entries).join(' \\| ');
  else if (def.type === 'number' || def.type === 'string') {
    const parts: string[] = [];
    const bag = s as unknown as { minValue?: number | null; maxValue?: number | null; isInt?: boolean; format?: string | null; minLength?: number | null };
    if (def.type === 'number') {
      parts.push(bag.isInt ? 'integer' : 'number');
      if (bag.minValue != null && bag.minValue > -Number.MAX_SAFE_INTEGER) parts.push(`≥ ${bag.minValue}`);
      if (bag.maxValue != null && bag.maxValue < Number.MAX_SAFE_INTEGER) parts.push(`≤ ${bag.maxValue}`);
    } else parts.push(bag.format === 'regex' ? 'string (pattern)' : (bag.format ?? 'string'));
    allowed = parts.join(', ');
  }
  return { default: dflt, allowed };
}

export async function generateConfigDoc(): Promise<string> {
  const files = fs
    .readdirSync(SETTINGS_DIR)
    .filter((f) => f.endsWith('-settings.ts'))
    // The platform's settings first: variables every process reads (NODE_ENV, …) are declared there.
    .sort((a, b) => Number(b === 'platform-settings.ts') - Number(a === 'platform-settings.ts') || a.localeCompare(b));
  const seen = new Set<string>();
  const areas: Area[] = [];
  for (const f of files) {
    const full = path.join(SETTINGS_DIR, f);
    const mod = (await import(full)) as Record<string, { env?: Record<string, z.ZodType> }>;
    const settings = Object.values(mod).find((v) => v && typeof v === 'object' && 'env' in v);
    if (!settings?.env) continue;
    const { summary, byName, shared } = readComments(full);
    const rows: Row[] = [];
    for (const [name, schema] of Object.entries(settings.env)) {
      if (shared.has(name) || seen.has(name)) continue; // listed once, in the area that declares it
      seen.add(name);
      rows.push({ name, meaning: byName.get(name) ?? '', ...describeSchema(schema) });
    }
    areas.push({ file: f, summary, rows });
  }
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\\\\\|/g, '\\|');
  const out: string[] = [
    '<!-- Generated by `npm run gen:config-doc` from platform/settings/*; do not edit. `npm test` checks it. -->',
    '# Configuration',
    '',
    'Every setting is an environment variable, parsed and checked once at start-up (`platform/config.ts`); a bad',
    "value stops the process and names the variable. An empty value means unset. Each table below is one area's",
    '`platform/settings/<area>-settings.ts`: the meaning is the comment above the declaration, the default and the',
    'allowed values come from its schema (a variable without a default is optional, or required where its meaning',
    'says so).',
    '',
    'Read outside the typed config, by the scripts only: `TEMPORAL_CLI_FROM` (`go`: build the Temporal CLI with Go',
    'instead of taking the PyPI wheel, `scripts/ensure-temporal-cli.sh`), `TEST_PG_PORT`, `TEST_DATABASE_URL` and',
    "`TEST_TEMPORAL_ADDRESS` (the test run's servers, see [testing](testing.md)), and `API_REPLICAS` /",
    '`WORKER_REPLICAS` (`docker-compose.yml` only: how many API and worker containers it runs).',
    '',
  ];
  for (const a of areas) {
    out.push(`## ${a.file.replace(/-settings\.ts$/, '')}`, '');
    if (a.summary) out.push(a.summary, '');
    out.push('| variable | default | allowed | meaning |', '|---|---|---|---|');
    for (const r of a.rows) out.push(`| \`${r.name}\` | ${r.default === '' ? '' : `\`${cell(r.default)}\``} | ${cell(r.allowed)} | ${cell(r.meaning)} |`);
    out.push('');
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const generated = await generateConfigDoc();
  // A variable nobody explained is a setting an operator cannot use: its declaration needs a doc comment.
  const unexplained = generated.split('\n').filter((l) => /^\| `[A-Z0-9_]+` .*\| {2}\|$/.test(l));
  if (unexplained.length) {
    console.error(`settings without a doc comment on their declaration (platform/settings/*):\n${unexplained.join('\n')}`);
    process.exit(1);
  }
  writeOrCheckGenerated(CONFIG_DOC_PATH, generated, { source: 'platform/settings', command: 'npm run gen:config-doc' });
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
