import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { LedgerCommitActivities } from '../../activities/ledger/ledger-commit-activities';
import { ledgerAnchorWorkflowId } from './ledger-anchor-contract';
import { ledgerAnchor } from './ledger-anchor-workflow';
import { ledgerCommitWorkflowId } from './ledger-commit-contract';
import { ledgerHourCommit } from './ledger-commit-workflow';
import type { LedgerTickResult } from './ledger-tick-contract';

const acts = proxyActivities<LedgerCommitActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * Started by a Temporal Schedule: seals what closed a grace period ago, then commits each track's sealed hours in
 * order, each as its own child workflow whose id is the track and hour (a commit that already ran, or is running
 * under another run, is not started again: this run leaves that track to the next). A failing track does not hold
 * up the others. Each new commit's anchor is its own workflow, abandoned by this run, so a node that is down delays
 * anchors and never commits.
 */
export async function ledgerTick(): Promise<LedgerTickResult> {
  const due = await acts.sealLedgerHours();
  const result: LedgerTickResult = { sealedUntil: due.sealedUntil, committed: [], anchorsStarted: 0, failed: [] };

  const anchor = async (commitId: number, track: string, hourStart: string) => {
    try {
      await startChild(ledgerAnchor, {
        workflowId: ledgerAnchorWorkflowId(track, new Date(hourStart)),
        args: [{ commitId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      });
      result.anchorsStarted++;
    } catch (e) {
      // Already anchoring (a node down for a while) or anchored: nothing to start.
      if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
    }
  };

  for (const t of due.tracks) {
    for (const hourStart of t.due) {
      try {
        const c = await executeChild(ledgerHourCommit, {
          workflowId: ledgerCommitWorkflowId(t.track, new Date(hourStart)),
          args: [{ track: t.track, hourStart }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
        });
        result.committed.push({ track: c.track, hourStart: c.hourStart, leafCount: c.leafCount, created: c.created });
        if (due.anchoring) await anchor(c.commitId, c.track, c.hourStart);
      } catch (e) {
        if (e instanceof WorkflowExecutionAlreadyStartedError) break;
        if (!(e instanceof ChildWorkflowFailure)) throw e;
        result.failed.push({ track: t.track, hourStart, error: e.cause?.message ?? e.message });
        break;
      }
    }
  }
  for (const u of due.unanchored) await anchor(u.commitId, u.track, u.hourStart);
  if (result.failed.length > 0) {
    const f = result.failed[0]!;
    throw ApplicationFailure.nonRetryable(`ledger ${f.track} ${f.hourStart} not committed: ${f.error}`, 'LedgerCommitFailed', result);
  }
  return result;
}
