import { spawnService } from '../../scripts/lib/supervised-child';
import { createSupervisor } from '../../scripts/lib/supervisor';

/**
 * The real supervisor over small real programs, run as its own process by test/e2e/ops/supervisor-process.test.ts:
 * `store` (layer 0) under `alpha` and `beta` (layer 1), which stay up until signalled, and `crashy` (layer 1),
 * which exits with code 3 right after starting. Timings are short so a crash loop shows within seconds.
 */
const program = (name: string, crash: boolean) => `
  const name = ${JSON.stringify(name)};
  for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => { console.log(name + ' got ' + s); process.exit(0); });
  console.log(name + ' running');
  ${crash ? "console.error(name + ': cannot reach the store'); setTimeout(() => process.exit(3), 50);" : 'setInterval(() => undefined, 1e9);'}
`;
const service = (name: string, layer: number, crash = false) => ({
  name,
  layer,
  start: async () => spawnService(process.execPath, ['-e', program(name, crash)], { stopSignal: 'SIGTERM', graceMs: 5000 }),
});

async function main() {
  const supervisor = createSupervisor({
    policy: { initialMs: 200, factor: 2, maxMs: 1000, stableAfterMs: 60_000, crashLoop: { exits: 3, windowMs: 30_000, backoffMs: 1500 } },
  });
  process.on(
    'SIGTERM',
    () =>
      void supervisor.stop().then(() => {
        console.log('driver stopped');
        process.exit(0);
      }),
  );
  await supervisor.start(service('store', 0));
  for (const s of [service('alpha', 1), service('beta', 1), service('crashy', 1, true)]) await supervisor.start(s);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
