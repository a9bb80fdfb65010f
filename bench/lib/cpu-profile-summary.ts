import path from 'node:path';

/** The parts of V8's .cpuprofile format (Chrome DevTools protocol `Profiler.Profile`) the summary reads. */
export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

export type FrameTime = { frame: string; ms: number; pct: number };
export type ProfileSummary = { totalMs: number; busyMs: number; self: FrameTime[]; inclusive: FrameTime[]; byArea: FrameTime[] };

/** Not work: the sampler saw an idle event loop, or time it cannot attribute to a frame. */
const IDLE = new Set(['(idle)', '(root)']);

/** `node_modules/express/lib/router/index.js` → `express/lib/router/index.js`; project files relative to the root. */
function shortFile(url: string, root: string): string {
  if (!url) return '';
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) return file.slice(nm + '/node_modules/'.length);
  return file.startsWith(root) ? path.relative(root, file) : file;
}

/** The package (`express-openapi-validator`, `@temporalio/worker`), project folder (`api`), `node:` internals or a V8 pseudo-frame. */
export function areaOf(url: string, functionName: string, root: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const file = shortFile(url, root);
  if (url.includes('/node_modules/')) {
    const parts = file.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return file.includes('/') ? `${file.split('/')[0]}/` : file;
}

/**
 * Self time (the frame was on top of the stack) and inclusive time (anywhere on the stack, counted once per sample
 * however often it recurses), aggregated by function and file, plus self time by package or project folder. Each
 * sample lasts until the next one.
 */
export function summariseProfile(p: CpuProfile, root: string, top = 15): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (id: number) => {
    const f = byId.get(id)!.callFrame;
    const file = shortFile(f.url, root);
    return file ? `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}` : f.functionName || '(anonymous)';
  };
  const msById = new Map<number, number>();
  const avgUs = p.samples.length ? (p.endTime - p.startTime) / p.samples.length : 0;
  for (let i = 0; i < p.samples.length; i++) {
    const us = p.timeDeltas[i + 1] ?? avgUs;
    msById.set(p.samples[i]!, (msById.get(p.samples[i]!) ?? 0) + Math.max(0, us) / 1000);
  }
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const area = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of msById) {
    totalMs += ms;
    const f = byId.get(id)!.callFrame;
    if (IDLE.has(f.functionName)) {
      idleMs += ms;
      continue;
    }
    const k = keyOf(id);
    self.set(k, (self.get(k) ?? 0) + ms);
    const a = areaOf(f.url, f.functionName, root);
    area.set(a, (area.get(a) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = keyOf(at);
      if (IDLE.has(byId.get(at)!.callFrame.functionName) || seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  const busyMs = totalMs - idleMs;
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame, ms]) => ({ frame, ms: Math.round(ms), pct: busyMs > 0 ? Math.round((ms / busyMs) * 1000) / 10 : 0 }));
  return { totalMs: Math.round(totalMs), busyMs: Math.round(busyMs), self: ranked(self), inclusive: ranked(inclusive), byArea: ranked(area) };
}
