import { decideRestart, DEFAULT_RESTART_POLICY, formatDelay, NO_HISTORY, type RestartHistory, type RestartPolicy } from '../../platform/restart-policy';
import { describeExit, type Exit, type RunningService } from './supervised-child';

/**
 * Keeps a set of processes running: one that dies is started again after a backoff while the others keep
 * running, each event is said in plain words, and a crash loop is reported loudly and retried more slowly (never
 * abandoned). Services sit in layers (e.g. 0 Postgres, 1 Temporal, 2 the daemons): `stop()` stops the highest
 * layer first, each layer in parallel, and a service that comes back wakes the higher-layer services that were
 * waiting to restart (they probably died because it was gone).
 */
export type ServiceSpec = {
  name: string;
  layer: number;
  /** Starts the process; resolves once it is ready to be used, rejects if it could not come up. */
  start: () => Promise<RunningService>;
};

export type ServiceStatus = { name: string; layer: number; pid: number | undefined; state: 'starting' | 'up' | 'waiting' | 'stopped'; restarts: number };

type Slot = ServiceStatus & {
  spec: ServiceSpec;
  running?: RunningService;
  pending?: Promise<unknown>;
  startedAt: number;
  history: RestartHistory;
  timer?: NodeJS.Timeout;
};

export type Supervisor = ReturnType<typeof createSupervisor>;

export function createSupervisor(o: { policy?: RestartPolicy; say?: (line: string) => void; shout?: (line: string) => void; now?: () => number } = {}) {
  const policy = o.policy ?? DEFAULT_RESTART_POLICY;
  const say = o.say ?? ((l: string) => console.log(`• ${l}`));
  const shout = o.shout ?? ((l: string) => console.error(`\n!! ${l}\n`));
  const now = o.now ?? Date.now;
  const slots: Slot[] = [];
  let stopping: Promise<void> | undefined;

  async function launch(slot: Slot, first: boolean): Promise<void> {
    slot.timer = undefined;
    if (stopping) return;
    slot.state = 'starting';
    const attempt = slot.spec.start();
    slot.pending = attempt.catch(() => undefined);
    let r: RunningService;
    try {
      r = await attempt;
    } catch (e) {
      if (first) {
        slot.state = 'stopped';
        throw e;
      }
      if (!stopping) down(slot, `did not come back (${e instanceof Error ? e.message : String(e)})`, 0);
      return;
    }
    slot.running = r;
    slot.pid = r.pid;
    slot.startedAt = now();
    slot.state = 'up';
    if (stopping) return; // stop() waits for this start and then stops it
    say(first ? `${slot.name} started (pid ${r.pid})` : `${slot.name} is back (pid ${r.pid})`);
    void r.exited.then((exit) => exitedNow(slot, r, exit));
    // Whatever died while this was gone gets its chance now rather than at the end of its backoff.
    for (const s of slots) {
      if (s.layer > slot.layer && s.state === 'waiting' && s.timer) {
        clearTimeout(s.timer);
        say(`${slot.name} is back: restarting ${s.name} now`);
        void launch(s, false);
      }
    }
  }

  function exitedNow(slot: Slot, r: RunningService, exit: Exit) {
    if (slot.running !== r) return;
    slot.running = undefined;
    slot.pid = undefined;
    if (stopping) return;
    down(slot, `exited (${describeExit(exit)})`, now() - slot.startedAt, r.output?.());
  }

  function down(slot: Slot, what: string, upForMs: number, lastOutput?: string) {
    const d = decideRestart(slot.history, upForMs, now(), policy);
    slot.history = d.history;
    slot.state = 'waiting';
    slot.restarts++;
    if (d.crashLoop) {
      const tail = lastOutput
        ?.trim()
        .split('\n')
        .slice(-5)
        .map((l) => `   ${l.slice(0, 300)}`)
        .join('\n');
      shout(
        `${slot.name} is crash-looping: ${d.recentExits} exits within ${formatDelay(policy.crashLoop.windowMs)}; it ${what}. ` +
          `Retrying in ${formatDelay(d.delayMs)}, and on until it stays up.` +
          (tail ? `\n   Its last output:\n${tail}` : ''),
      );
    } else {
      say(`${slot.name} ${what}${upForMs > 0 ? ` after ${formatDelay(upForMs)}` : ''}; restarting in ${formatDelay(d.delayMs)}`);
    }
    slot.timer = setTimeout(() => void launch(slot, false), d.delayMs);
  }

  return {
    /** Starts a service for the first time (rejecting if it cannot come up); from then on it is kept running. */
    async start(spec: ServiceSpec): Promise<void> {
      if (stopping) throw new Error(`not starting ${spec.name}: stopping`);
      const slot: Slot = { spec, name: spec.name, layer: spec.layer, pid: undefined, state: 'starting', restarts: 0, startedAt: now(), history: NO_HISTORY };
      slots.push(slot);
      await launch(slot, true);
    },

    status(): ServiceStatus[] {
      return slots.map(({ name, layer, pid, state, restarts }) => ({ name, layer, pid, state, restarts }));
    },

    get stopping(): boolean {
      return stopping !== undefined;
    },

    /** Stops everything, highest layer first; restarts stop at once. Safe to call more than once. */
    stop(): Promise<void> {
      stopping ??= (async () => {
        for (const s of slots) if (s.timer) clearTimeout(s.timer);
        const layers = [...new Set(slots.map((s) => s.layer))].sort((a, b) => b - a);
        for (const layer of layers) {
          const these = slots.filter((s) => s.layer === layer);
          say(`stopping ${these.map((s) => s.name).join(', ')} …`);
          await Promise.all(
            these.map(async (s) => {
              await s.pending;
              await s.running?.stop().catch((e) => console.error(`${s.name}: ${e instanceof Error ? e.message : String(e)}`));
              s.state = 'stopped';
              s.pid = undefined;
            }),
          );
        }
      })();
      return stopping;
    },
  };
}
