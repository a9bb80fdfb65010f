import { portOpen } from './local-temporal';
import type { OutputSink } from './process-output';
import { waitFor } from './run';
import { exitedEarly, nodeEntryService, type RunningService } from './supervised-child';

/** A simulator may spend a while building its market before it listens, more so on a busy machine. */
const LISTEN_TIMEOUT_MS = 120_000;

/**
 * An entry point that serves on a loopback port (a simulated exchange or price source), started as a supervised
 * service that counts as up only once the port accepts connections: the processes started after it (the worker,
 * ingest) then never meet a connection refused from our own start order.
 */
export async function listeningService(entry: string, env: NodeJS.ProcessEnv, port: number, o: { sink?: OutputSink } = {}): Promise<RunningService> {
  const s = nodeEntryService(entry, env, o);
  try {
    await waitFor(
      `${entry} to listen on port ${port}`,
      () => portOpen(port),
      LISTEN_TIMEOUT_MS,
      () => exitedEarly(s.child, s.output),
    );
  } catch (e) {
    await s.stop();
    throw e;
  }
  return s;
}
