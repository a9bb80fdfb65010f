import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { Steps } from '../domain/scoring/steps';

/**
 * Runs pausable pure work (domain/scoring/steps.ts) in slices of about `sliceMs`, handing the event loop
 * back between slices, so I/O callbacks (a scoring activity, a heartbeat) wait at most one slice plus the
 * longest single piece. The result is the same as running the steps in one go.
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = 10): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextMacrotask();
      sliceStart = performance.now();
    }
  }
}
