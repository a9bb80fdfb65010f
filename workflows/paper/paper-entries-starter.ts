import type { Client } from '@temporalio/client';
import { startOrJoin } from '../start-or-join-starter';
import { PAPER_ENTRIES_WORKFLOW, PAPER_ENTRIES_WORKFLOW_ID, type PaperEntriesInput } from './paper-entries-contract';

/** Starts the one entry loop, or leaves the running one alone; every worker start may call it. */
export async function ensurePaperEntries(client: Client, taskQueue: string, pollMs: number, o: { workflowId?: string } = {}): Promise<void> {
  const input: PaperEntriesInput = { pollMs, iterationsPerRun: 500 };
  await startOrJoin(client, PAPER_ENTRIES_WORKFLOW, { taskQueue, workflowId: o.workflowId ?? PAPER_ENTRIES_WORKFLOW_ID, input });
}
