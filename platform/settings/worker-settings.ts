import { z } from 'zod';
import { defineSettings } from './settings';

const count = (max: number) => z.coerce.number().int().min(1).max(max);

/**
 * The worker process's Temporal tuning (bench/PROFILE-NOTES.md, bench:lifecycles; README "Scaling out"). The sticky
 * cache is what costs memory (~460 KiB RSS per cached workflow): the SDK's default follows the heap limit (2,310 at
 * a 4 GiB heap, ≈ 1.3 GiB RSS), so it is set here explicitly. Concurrency stays at the SDK's defaults, which no
 * measured figure showed binding; unset poller counts keep the SDK's own.
 */
export const workerSettings = defineSettings(
  {
    /** The worker's sticky cache (workflows kept in memory between tasks, ~0.35–0.45 MiB RSS each); `0` = none (every task replays its history). */
    WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(100_000).default(1000),
    /** Workflow tasks and activities one worker runs at once (the SDK's defaults; no measured figure showed them binding). */
    WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: count(1000).min(2).default(40),
    /** Workflow tasks and activities one worker runs at once (the SDK's defaults; no measured figure showed them binding). */
    WORKER_MAX_CONCURRENT_ACTIVITIES: count(1000).default(100),
    /** Long polls a worker keeps open on the task queue. */
    WORKER_MAX_CONCURRENT_WORKFLOW_TASK_POLLS: count(100).min(2).optional(),
    /** Long polls a worker keeps open on the task queue. */
    WORKER_MAX_CONCURRENT_ACTIVITY_TASK_POLLS: count(100).optional(),
  },
  (e) => ({
    worker: {
      maxCachedWorkflows: e.WORKER_MAX_CACHED_WORKFLOWS,
      maxConcurrentWorkflowTaskExecutions: e.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
      maxConcurrentActivityTaskExecutions: e.WORKER_MAX_CONCURRENT_ACTIVITIES,
      maxConcurrentWorkflowTaskPolls: e.WORKER_MAX_CONCURRENT_WORKFLOW_TASK_POLLS,
      maxConcurrentActivityTaskPolls: e.WORKER_MAX_CONCURRENT_ACTIVITY_TASK_POLLS,
    },
  }),
);

export type WorkerTuning = ReturnType<typeof workerSettings.section>['worker'];
