import { defineQuery } from '@temporalio/workflow';
import type { WorkflowContract } from '../workflow-contract';

export const HISTORY_BACKFILL_WORKFLOW = 'historyBackfill';
export const HISTORY_BACKFILL_CHUNK_WORKFLOW = 'historyBackfillChunk';
/** The activity's failure type when today's request cap would be exceeded; details: [the time it is free again, ms]. */
export const RPC_BUDGET_EXHAUSTED = 'HistoryRpcBudgetExhausted';

export type HistoryBackfillInput = {
  fromMs: number;
  toMs: number;
  chunkS: number;
  pageSize: number;
  /** Carried over continue-as-new: chunks done and where the next one starts paging. */
  carried?: { nextIndex: number; before: string | null; progress: HistoryBackfillProgress };
};

export type BackfillTotals = {
  pages: number;
  signaturesSeen: number;
  inRange: number;
  transactionsDecoded: number;
  launches: number;
  trades: number;
  graduations: number;
  rowsWritten: number;
  requests: number;
};

export type BackfillChunkInput = {
  rangeId: string;
  chunkId: string;
  fromMs: number;
  toMs: number;
  /** The range's end: mints created a label horizon before it have their whole horizon read, and are folded. */
  rangeToMs: number;
  pageSize: number;
  /** Where paging starts (exclusive): the newer chunk's last signature; null starts at the newest transaction. */
  before: string | null;
  carried?: { page: number; cursor: string | null; totals: BackfillTotals; oldestMs: number | null };
};

export type BackfillChunkProgress = {
  chunkId: string;
  page: number;
  cursor: string | null;
  oldestMs: number | null;
  totals: BackfillTotals;
  /** Set while the daily request cap is spent: when the chunk goes on. */
  waitingUntil: string | null;
  done: boolean;
  /** Completed by an earlier run (a rerun of the range reads nothing again). */
  skipped: boolean;
  /** Mints of the chunk folded into labelled history (features and 24 h labels). */
  historyMints: number;
};

export type HistoryBackfillProgress = {
  rangeId: string;
  chunks: number;
  chunksDone: number;
  current: string | null;
  totals: BackfillTotals;
  historyMints: number;
};

export type BackfillPageInput = { rangeId: string; chunkId: string; fromMs: number; toMs: number; page: number; before: string | null; pageSize: number };
export type BackfillPageOutcome = {
  cursor: string | null;
  done: boolean;
  oldestMs: number | null;
  totals: BackfillTotals;
};

export const emptyTotals = (): BackfillTotals => ({
  pages: 0,
  signaturesSeen: 0,
  inRange: 0,
  transactionsDecoded: 0,
  launches: 0,
  trades: 0,
  graduations: 0,
  rowsWritten: 0,
  requests: 0,
});
export const addTotals = (a: BackfillTotals, b: BackfillTotals): BackfillTotals => {
  const out = { ...a };
  for (const k of Object.keys(b) as (keyof BackfillTotals)[]) out[k] += b[k];
  return out;
};

export const historyBackfillProgressQuery = defineQuery<HistoryBackfillProgress>('historyBackfillProgress');
export const historyBackfillChunkProgressQuery = defineQuery<BackfillChunkProgress>('historyBackfillChunkProgress');

/** A range can wait days for its request budget: no deadline for the watchdog. */
export const HISTORY_BACKFILL_CONTRACT: WorkflowContract = { workflowType: HISTORY_BACKFILL_WORKFLOW };
export const HISTORY_BACKFILL_CHUNK_CONTRACT: WorkflowContract = { workflowType: HISTORY_BACKFILL_CHUNK_WORKFLOW };
