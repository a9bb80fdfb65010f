import { sleep } from '@temporalio/workflow';

/** Workflow time (replay-safe inside the sandbox). */
export const nowMs = () => new Date().getTime();

/** Durable wait until an instant; returns at once when it has passed (a worker that was down catches up). */
export async function sleepUntil(atMs: number): Promise<void> {
  const wait = atMs - nowMs();
  if (wait > 0) await sleep(wait);
}
