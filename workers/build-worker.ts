import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Activities } from '../activities';
import type { Metrics } from '../platform/metrics';
import type { WorkerTuning } from '../platform/settings/worker-settings';
import type { MetricsSinks } from '../workflows/metrics-sink';
import { activityMetricsInterceptor } from './activity-metrics-interceptor';
import type { InjectedSinks } from '@temporalio/worker';

export type BuildWorkerOptions = {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: Activities;
  metrics: Metrics;
  /** A prebuilt bundle (tests bundle once per run); otherwise the workflows are bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Sticky cache and concurrency (platform/settings/worker-settings.ts); the SDK's defaults when absent. */
  tuning?: WorkerTuning;
};

export function buildWorker(o: BuildWorkerOptions): Promise<Worker> {
  const sinks: InjectedSinks<MetricsSinks> = {
    metrics: {
      workflowOutcome: {
        fn: (info, outcome) => o.metrics.workflowOutcomes.inc({ workflow_type: info.workflowType, outcome }),
        callDuringReplay: false,
      },
    },
  };
  return Worker.create({
    connection: o.connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    activities: o.activities,
    ...(o.workflowBundle ? { workflowBundle: o.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
    interceptors: {
      activity: [activityMetricsInterceptor(o.metrics)],
      workflowModules: o.workflowBundle ? undefined : [require.resolve('../workflows/interceptors')],
    },
    sinks,
    ...definedOnly(o.tuning ?? {}),
  });
}

/** The SDK takes an explicit `undefined` as a value; an unset knob must be left out to keep its default. */
const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
