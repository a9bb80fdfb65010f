import cluster, { type Worker } from 'node:cluster';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, Counter, Gauge, Registry, type Registry as RegistryType } from 'prom-client';
import { createPortGate } from './cluster-port';
import type { Logger } from './logger';
import { listenWhenFree } from './net/listen-when-free';
import { decideRestart, DEFAULT_RESTART_POLICY, formatDelay, NO_HISTORY, type RestartHistory, type RestartPolicy } from './restart-policy';

export type ClusterPrimaryOptions = {
  /** What the processes are called in logs and metrics ("api"). */
  name: string;
  processes: number;
  log: Logger;
  /** The operator port where the primary serves every process's metrics, aggregated. */
  metrics: { host: string; port: number };
  policy?: RestartPolicy;
  /** How long a process may take to finish its requests after SIGTERM before it is killed. */
  stopGraceMs?: number;
  /** The port the processes serve: they listen once the primary finds it free or already theirs (cluster-port.ts). */
  listen: { port: number; host: string };
};

type Slot = { worker?: Worker; listening: boolean; upSince: number; history: RestartHistory; timer?: NodeJS.Timeout };

/**
 * The primary of a node `cluster`: forks `processes` copies of this entry point, which share one listening port
 * (the primary accepts and hands connections round-robin). A process that dies is forked again with the same
 * backoff and crash-loop handling as `npm start`'s supervisor (restart-policy.ts), never given up on. SIGTERM or
 * SIGINT stops them all gracefully (each finishes its requests), then the primary exits. The primary itself
 * serves no requests: it only supervises and serves `/metrics`, the processes' registries summed per label set.
 * If the primary dies, Node ends its processes (they exit when their IPC channel closes), so whatever supervises
 * the primary sees one service and restarts it whole. The primary holds the shared listening socket too: were it to
 * outlive every process that serves, the kernel would go on accepting connections no one reads. So once all of them
 * are gone after the port was served, the primary exits as well: clients are refused at once, a hot standby on the
 * port takes it over (platform/net/listen-when-free.ts), and the supervisor restarts this one.
 */
export function runClusterPrimary(o: ClusterPrimaryOptions): { stopped: Promise<void>; metricsServer: http.Server } {
  // The kernel hands each connection to a process that accepts it (SCHED_NONE), not the primary: with round robin
  // the primary passes accepted sockets over IPC, and those it passed to a process killed that instant hung.
  // Set once, before the first fork.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const policy = o.policy ?? DEFAULT_RESTART_POLICY;
  const own = new Registry();
  own.setDefaultLabels({ process: o.name });
  const restarts = new Counter({ name: 'cluster_process_restarts_total', help: 'Processes of this cluster forked again after they died', registers: [own] });
  const listening = new Gauge({ name: 'cluster_processes_listening', help: 'Processes of this cluster serving on the shared port', registers: [own] });
  const slots: Slot[] = Array.from({ length: o.processes }, () => ({ listening: false, upSince: 0, history: NO_HISTORY }));
  let stopping = false;
  let served = false;
  const gate = createPortGate({
    ...o.listen,
    serving: () => slots.some((s) => s.listening),
    onWaiting: () => o.log.warn({ port: o.listen.port }, `${o.name} port is taken: standing by, taking it over once it is free`),
  });

  const count = () => listening.set(slots.filter((s) => s.listening).length);
  const fork = (i: number) => {
    const slot = slots[i]!;
    slot.timer = undefined;
    const worker = cluster.fork();
    gate.watch(worker);
    slot.worker = worker;
    slot.upSince = Date.now();
    worker.once('listening', () => {
      slot.listening = true;
      served = true;
      count();
    });
    worker.once('exit', (code, signal) => {
      slot.listening = false;
      count();
      if (stopping) return;
      if (served && slots.every((s) => !s.listening)) {
        o.log.error({ pid: worker.process.pid, code, signal }, `every ${o.name} process is gone: the primary exits too, releasing the port`);
        process.exit(1);
      }
      const d = decideRestart(slot.history, Date.now() - slot.upSince, Date.now(), policy);
      slot.history = d.history;
      o.log.error(
        { pid: worker.process.pid, code, signal, restartInMs: d.delayMs, recentExits: d.recentExits, crashLoop: d.crashLoop },
        `${o.name} process ${i + 1}/${o.processes} exited; forking it again in ${formatDelay(d.delayMs)}`,
      );
      restarts.inc();
      slot.timer = setTimeout(() => fork(i), d.delayMs);
    });
  };
  slots.forEach((_, i) => fork(i));
  o.log.info({ processes: o.processes }, `${o.name} primary forked ${o.processes} processes`);

  const metricsServer = serveAggregatedMetrics(new AggregatorRegistry<typeof Registry.PROMETHEUS_CONTENT_TYPE>(), own, o.metrics, o.log, o.name);
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      o.log.info({ signal }, `${o.name} primary stopping its processes`);
      for (const s of slots) clearTimeout(s.timer);
      gate.stop();
      const running = slots.map((s) => s.worker).filter((w): w is Worker => w !== undefined && !w.isDead());
      void Promise.all(running.map((w) => stopWorker(w, o.stopGraceMs ?? 15_000))).then(() => {
        metricsServer.close();
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return { stopped, metricsServer };
}

/** SIGTERM (the process's own graceful shutdown), SIGKILL after `graceMs`; resolves once it is gone. */
function stopWorker(w: Worker, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const kill = setTimeout(() => w.process.kill('SIGKILL'), graceMs);
    w.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    w.process.kill('SIGTERM');
  });
}

function serveAggregatedMetrics(
  agg: AggregatorRegistry<typeof Registry.PROMETHEUS_CONTENT_TYPE>,
  own: RegistryType,
  at: { host: string; port: number },
  log: Logger,
  name: string,
): http.Server {
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') return void res.writeHead(404).end();
    Promise.all([agg.clusterMetrics(), own.metrics()]).then(
      ([processes, primary]) => res.writeHead(200, { 'content-type': agg.contentType }).end(`${processes}\n${primary}`),
      (e: Error) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${e.message}\n`),
    );
  });
  server.on('listening', () => log.info({ url: `http://${at.host}:${(server.address() as AddressInfo).port}/metrics` }, `${name} metrics listening`));
  // A taken operator port costs the metrics, not the API; a hot standby's primary takes it over with the API's port.
  server.on(
    'error',
    (err: NodeJS.ErrnoException) =>
      err.code !== 'EADDRINUSE' && log.error({ err: { message: err.message } }, `${name} metrics not served on ${at.host}:${at.port}`),
  );
  return listenWhenFree(server, at.port, at.host);
}

/**
 * In a cluster process: answer the primary's metric requests with `registry` (instead of prom-client's global
 * one). Its series are told apart in the sum by the `cluster_process` label (see clusterProcessId).
 */
export function reportMetricsToPrimary(registry: RegistryType): void {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs the listener for the primary's requests in this process.
  new AggregatorRegistry();
}

/** Which cluster process this is (1, 2, …; a forked-again process gets the next number), or undefined outside a cluster. */
export const clusterProcessId = (): string | undefined => (cluster.isWorker ? String(cluster.worker!.id) : undefined);
