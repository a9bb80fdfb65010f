import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { LIVE_PROJECTOR_WORKFLOW, LIVE_PROJECTOR_WORKFLOW_ID, tradesIngestedSignal, type LiveProjectorInput } from './live-projector-contract';

/** Starts the one live projector, or leaves the running one alone; every worker start may call it. */
export async function ensureLiveProjector(client: Client, taskQueue: string, intervalMs: number): Promise<void> {
  const input: LiveProjectorInput = { intervalMs, iterationsPerRun: 500 };
  await startOrJoin(client, LIVE_PROJECTOR_WORKFLOW, { taskQueue, workflowId: LIVE_PROJECTOR_WORKFLOW_ID, input });
}

export type LiveProjectorWaker = {
  /** Trades are durable: wake the projector's evaluation. Never waits and never throws (the refresh is the fallback). */
  wake(): void;
  /** Cancels a wake held back by the spacing. */
  stop(): void;
};

/**
 * Wakes the live projector after committed trades, at most once per `minSpacingMs`: the first wake is sent at
 * once, later ones within the spacing become one trailing signal, and at most one signal is in flight. Batches
 * arrive every few hundred ms at most, so the workflow sees a bounded signal rate whatever the trade rate. A lost
 * or failed signal costs only lateness: the periodic refresh evaluates every mint anyway.
 */
export function createLiveProjectorWaker(
  client: Client,
  o: { minSpacingMs: number; workflowId?: string; onError?: (err: unknown) => void; now?: () => number },
): LiveProjectorWaker {
  const handle = client.workflow.getHandle(o.workflowId ?? LIVE_PROJECTOR_WORKFLOW_ID);
  const now = o.now ?? Date.now;
  let lastSentAt = -Infinity;
  let inFlight = false;
  let wanted = false;
  let timer: NodeJS.Timeout | null = null;

  const send = () => {
    timer = null;
    wanted = false;
    inFlight = true;
    lastSentAt = now();
    handle
      .signal(tradesIngestedSignal)
      // Not started yet (a worker starts it): nothing to wake.
      .catch((err: unknown) => (err instanceof WorkflowNotFoundError ? undefined : o.onError?.(err)))
      .finally(() => {
        inFlight = false;
        if (wanted) schedule();
      });
  };
  const schedule = () => {
    if (inFlight || timer) return;
    const wait = lastSentAt + o.minSpacingMs - now();
    if (wait <= 0) send();
    else timer = setTimeout(send, wait);
  };

  return {
    wake() {
      wanted = true;
      schedule();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      wanted = false;
    },
  };
}
