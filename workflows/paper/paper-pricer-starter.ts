import type { Client } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { PAPER_PRICER_WORKFLOW, PAPER_PRICER_WORKFLOW_ID, type PaperPricerInput } from './paper-pricer-contract';

/** Starts the one pricer, or leaves the running one alone; every worker start may call it. */
export async function ensurePaperPricer(
  client: Client,
  taskQueue: string,
  tickMs: number,
  o: { workflowId?: string; iterationsPerRun?: number } = {},
): Promise<void> {
  const input: PaperPricerInput = { tickMs, iterationsPerRun: o.iterationsPerRun ?? 500 };
  await startOrJoin(client, PAPER_PRICER_WORKFLOW, { taskQueue, workflowId: o.workflowId ?? PAPER_PRICER_WORKFLOW_ID, input });
}
