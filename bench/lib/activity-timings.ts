import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

type Event = {
  eventId: string;
  eventTime: string;
  eventType: string;
  activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  activityTaskCompletedEventAttributes?: { scheduledEventId: string; result?: { payloads?: { data?: string }[] } };
  activityTaskFailedEventAttributes?: { scheduledEventId: string };
  activityTaskTimedOutEventAttributes?: { scheduledEventId: string };
  workflowExecutionSignaledEventAttributes?: { signalName: string };
};

/** An activity's completion: when (epoch ms) and its JSON result. */
export type ActivityCompletion = { at: number; result: unknown };
export type ActivityTimings = {
  durationsMs: Map<string, number[]>;
  /** Each activity type's completions in history order, with their results. */
  completions: Map<string, ActivityCompletion[]>;
  failed: Map<string, number>;
  signals: Map<string, number>;
};

/**
 * Each activity's time from scheduled to completed (the workflow's own view: queueing on the task queue included),
 * by activity type, with each completion's result, over every run of a workflow id (continued-as-new runs included), and the signals it received.
 */
export async function activityTimings(client: Client, workflowId: string): Promise<ActivityTimings> {
  const out: ActivityTimings = { durationsMs: new Map(), completions: new Map(), failed: new Map(), signals: new Map() };
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const { events } = JSON.parse(historyToJSON(await client.workflow.getHandle(workflowId, run.runId).fetchHistory())) as { events: Event[] };
    const scheduled = new Map<string, { name: string; at: number }>();
    for (const e of events) {
      const at = Date.parse(e.eventTime);
      const a = e.activityTaskScheduledEventAttributes;
      if (a) scheduled.set(e.eventId, { name: a.activityType.name, at });
      const done = e.activityTaskCompletedEventAttributes;
      if (done) {
        const s = scheduled.get(done.scheduledEventId)!;
        const xs = out.durationsMs.get(s.name) ?? [];
        xs.push(at - s.at);
        out.durationsMs.set(s.name, xs);
        const data = done.result?.payloads?.[0]?.data;
        const completed = out.completions.get(s.name) ?? [];
        completed.push({ at, result: data ? JSON.parse(Buffer.from(data, 'base64').toString('utf8')) : undefined });
        out.completions.set(s.name, completed);
      }
      const bad = e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
      if (bad) {
        const name = scheduled.get(bad.scheduledEventId)!.name;
        out.failed.set(name, (out.failed.get(name) ?? 0) + 1);
      }
      const sig = e.workflowExecutionSignaledEventAttributes;
      if (sig) out.signals.set(sig.signalName, (out.signals.get(sig.signalName) ?? 0) + 1);
    }
  }
  return out;
}
