/**
 * The two ends of a daemon's entry point: `runEntry` runs its main, and a failure before it is up is printed and
 * exits 1 (the supervisor restarts it); `stopOnSignal` runs its clean-up once on the first SIGINT or SIGTERM, then
 * exits 0.
 */
export function runEntry(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

export function stopOnSignal(stop: () => Promise<void>): void {
  const shutdown = async () => {
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}
