import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

/** Bundles all workflow code with its interceptors once, for tests, replay and benchmarks. */
export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    workflowInterceptorModules: [require.resolve('../workflows/interceptors')],
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => console.error(m), log() {} } as never,
  });
}
