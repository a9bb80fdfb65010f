import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionOptions } from '@temporalio/client';

export async function connectTemporalClient(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace });
}

type Interceptor = NonNullable<ConnectionOptions['interceptors']>[number];

/** Calls that wait on a workflow by design (an update runs activities before it answers); they get the long deadline. */
const WAITING_CALLS = /\/(UpdateWorkflowExecution|PollWorkflowExecutionUpdate)$/;

/**
 * A Temporal client for request paths (the API). It connects lazily, so the process starts and serves what needs
 * no workflow while Temporal is down; and every call carries a deadline, so a request fails within `callTimeoutMs`
 * (DEADLINE_EXCEEDED, or UNAVAILABLE when the server refuses) instead of the SDK's ~20 s of retries or a hang on a
 * server that never answers. Updates wait for their workflow and get `waitTimeoutMs`.
 */
export function lazyTemporalClient(address: string, namespace: string, o: { callTimeoutMs: number; waitTimeoutMs?: number }): Client {
  const waitTimeoutMs = o.waitTimeoutMs ?? 30_000;
  const deadline: Interceptor = (options, nextCall) => {
    const ms = WAITING_CALLS.test(options.method_definition.path) ? waitTimeoutMs : o.callTimeoutMs;
    // A deadline set by the caller (Connection.withDeadline) stands.
    return nextCall(options.deadline ? options : { ...options, deadline: Date.now() + ms }) as ReturnType<Interceptor>;
  };
  const connection = Connection.lazy({
    address,
    connectTimeout: o.callTimeoutMs,
    // Outermost first: the deadline covers every attempt. Three attempts (backoff 100 ms, 170 ms) fit in it; the
    // SDK's default ten back off past 5 s, far beyond any request's patience.
    interceptors: [deadline, makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3 }))],
  });
  return new Client({ connection, namespace });
}
