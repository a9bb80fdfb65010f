import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A relative import between two of our files, paths relative to the root. `import type` and re-exports included. */
export type FileImport = { file: string; imported: string };

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const resolveRelative = (fromFile: string, spec: string): string | undefined => {
  const base = path.resolve(path.dirname(fromFile), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((p) => fs.existsSync(p));
};

/** Every relative import of the TypeScript files under `folders` of `root`, type-only imports included. */
export function fileImports(root: string, folders: readonly string[]): FileImport[] {
  return folders
    .flatMap((f) => sourceFiles(path.join(root, f)))
    .flatMap((file) =>
      // preProcessFile lists every import and re-export, `import type` included: a type shared both ways couples two
      // modules as much as a value, though the emitted JavaScript drops it.
      ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.flatMap((imp) => {
        const target = imp.fileName.startsWith('.') ? resolveRelative(file, imp.fileName) : undefined;
        return target ? [{ file: path.relative(root, file), imported: path.relative(root, target) }] : [];
      }),
    );
}

/** The strongly connected components of more than one node (Tarjan): each a set of nodes that all reach each other. */
export function cycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    if (!next.has(e.to)) next.set(e.to, new Set());
    next.get(e.from)!.add(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) components.push(c.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return components;
}
