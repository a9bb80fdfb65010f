import path from 'node:path';
import { cycles, fileImports, type FileImport } from './lib/import-graph';

/**
 * Import cycles, checked in `npm test` at two grains, both counting `import type`:
 *
 * - files: no two of our modules may reach each other. eslint's `import-x/no-cycle` reports runtime cycles as you
 *   type, but it skips type-only imports unconditionally (it has no option for them), so this covers those too.
 * - areas: `activities/mint/x.ts` importing `db/signals/y.ts` is an edge mint → signals, whatever role folders the
 *   two files sit in. Two areas that reach each other can no longer be read, changed or moved one at a time, so any
 *   edge on an area cycle fails the check, printed with the files that make it. An area that needs something from an
 *   area built on its own takes it through a port it declares (docs/architecture.md, "Areas form no cycle").
 *
 *   npx tsx scripts/import-cycles.ts [root]   prints the figures, and every edge on a cycle with its files
 */

/** Every folder of TypeScript code we write (web/ is the browser bundle, checked the same way). */
const CODE_FOLDERS = [
  'activities',
  'api',
  'bench',
  'clients',
  'db',
  'domain',
  'ingest',
  'models',
  'platform',
  'scripts',
  'test',
  'web',
  'workers',
  'workflows',
];
/**
 * The role folders whose sub-folders are business areas. Files directly in a role folder are the lists of areas and
 * their shared plumbing, not an area; clients/ are named for the outside service they speak to, not for an area.
 */
const ROLE_FOLDERS = ['activities', 'api', 'db', 'domain', 'models', 'workflows'];

type AreaEdge = FileImport & { from: string; to: string };

const areaOf = (file: string): string | undefined => {
  const parts = file.split(path.sep);
  return parts.length > 2 && ROLE_FOLDERS.includes(parts[0]!) ? parts[1] : undefined;
};

export function areaEdges(imports: readonly FileImport[]): AreaEdge[] {
  return imports.flatMap((i) => {
    const from = areaOf(i.file);
    const to = areaOf(i.imported);
    return from && to && from !== to ? [{ ...i, from, to }] : [];
  });
}

/** The area edges on a cycle (both ends in one strongly connected component), as `from → to`. */
export function cycleEdges(edges: readonly AreaEdge[]): string[] {
  const component = new Map(cycles(edges).flatMap((c, k) => c.map((area) => [area, k] as const)));
  const on = edges.filter((e) => component.has(e.from) && component.get(e.from) === component.get(e.to));
  return [...new Set(on.map((e) => `${e.from} → ${e.to}`))].sort();
}

if (require.main === module) {
  const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
  let failed = false;

  const imports = fileImports(root, CODE_FOLDERS);
  const fileCycles = cycles(imports.map((i) => ({ from: i.file, to: i.imported })));
  console.log(`files: ${new Set(imports.map((i) => i.file)).size}, file cycles (type-only imports included): ${fileCycles.length}`);
  for (const c of fileCycles) console.log(`  file cycle: ${c.join(' ↔ ')}`);
  failed ||= fileCycles.length > 0;

  const edges = areaEdges(imports);
  const pairs = new Set(edges.map((e) => `${e.from} → ${e.to}`));
  const reverse = (p: string) => p.split(' → ').reverse().join(' → ');
  const mutual = [...pairs].filter((p) => p < reverse(p) && pairs.has(reverse(p))).map((p) => p.replace(' → ', ' ↔ '));
  const areaCycles = cycles(edges);
  const onCycles = cycleEdges(edges);
  console.log(`areas: ${new Set(edges.flatMap((e) => [e.from, e.to])).size}, area edges: ${pairs.size}`);
  console.log(`mutually importing area pairs: ${mutual.length}${mutual.length ? ` (${mutual.join(', ')})` : ''}`);
  console.log(`area cycles: ${areaCycles.length} (${areaCycles.map((c) => c.join(', ')).join('; ') || 'none'}), area edges on cycles: ${onCycles.length}`);
  for (const e of onCycles) {
    console.log(`area cycle edge ${e}:`);
    for (const x of edges.filter((x) => `${x.from} → ${x.to}` === e)) console.log(`  ${x.file} imports ${x.imported}`);
  }
  failed ||= onCycles.length > 0;
  process.exit(failed ? 1 : 0);
}
