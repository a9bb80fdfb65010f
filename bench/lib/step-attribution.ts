import { Session } from 'node:inspector';
import path from 'node:path';
import type { CpuProfile } from './cpu-profile-summary';

/**
 * What a stepwise fit was doing during its longest steps: V8's sampling profiler runs in this process while the
 * fit is driven, each step's window is recorded on the profiler's own clock (both are the monotonic clock), and the
 * samples inside a window are attributed to the innermost project function on their stack (the code that did not
 * yield) and to the garbage collector. A generator's `yield` carries no name, so this is how a step gets one.
 */
export type StepWindow = { index: number; fromUs: number; toUs: number; wallMs: number; cpuMs: number };
export type StepAttribution = StepWindow & { samples: number; top: { frame: string; pct: number }[] };

const ROOT = path.resolve(__dirname, '../..');

export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

export function startInProcessProfiler(samplingIntervalUs = 1000) {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params ?? {}, (err, r) => (err ? reject(err) : resolve(r as T))));
  const started = (async () => {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await post('Profiler.start');
  })();
  return {
    started,
    stop: async () => {
      const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

/** The innermost project frame (`fn file`), or the V8 pseudo-frame (`(garbage collector)`) when none is on the stack. */
function frameNamer(p: CpuProfile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const cache = new Map<number, string>();
  return (id: number): string => {
    const hit = cache.get(id);
    if (hit !== undefined) return hit;
    const top = byId.get(id)!.callFrame;
    // V8's pseudo-frames ((garbage collector), (program)) carry no script.
    const pseudo = top.url === '' && top.functionName.startsWith('(');
    let name = pseudo ? top.functionName : '(outside the project)';
    if (!pseudo) {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const f = byId.get(at)!.callFrame;
        const file = f.url.startsWith('file://') ? decodeURIComponent(new URL(f.url).pathname) : f.url;
        if (file.startsWith(ROOT) && !file.includes('/node_modules/') && !file.includes('/bench/')) {
          // Line numbers are the transpiled file's: the function and file name the place.
          name = `${f.functionName || '(anonymous)'} ${path.relative(ROOT, file)}`;
          break;
        }
      }
    }
    cache.set(id, name);
    return name;
  };
}

/** Each window's samples by innermost project frame, the top three with their share of the window's samples. */
export function attributeSteps(p: CpuProfile, windows: readonly StepWindow[]): StepAttribution[] {
  const name = frameNamer(p);
  const times: number[] = [];
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) times.push((t += p.timeDeltas[i] ?? 0));
  return windows.map((w) => {
    const counts = new Map<string, number>();
    let samples = 0;
    for (let i = 0; i < times.length; i++) {
      if (times[i]! < w.fromUs || times[i]! > w.toUs) continue;
      const k = name(p.samples[i]!);
      counts.set(k, (counts.get(k) ?? 0) + 1);
      samples++;
    }
    const top = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([frame, c]) => ({ frame, pct: Math.round((c / samples) * 100) }));
    return { ...w, samples, top };
  });
}

export const describeStep = (a: StepAttribution) =>
  `step ${a.index}: ${a.wallMs.toFixed(0)} ms wall, ${a.cpuMs.toFixed(0)} ms CPU — ` +
  (a.samples === 0 ? 'no samples' : a.top.map((f) => `${f.pct}% ${f.frame}`).join(', '));
