/** Runs a process's composition root: a failure to start is printed and ends the process with code 1. */
export function runProcess(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

/** On the first SIGINT or SIGTERM (Ctrl-C, a supervisor, Docker) runs `stop`, then exits: 0, or 1 when stopping failed. */
export function onStopSignal(stop: () => Promise<void>): void {
  const shutdown = () =>
    void stop().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
