import { execFile, type ExecFileOptions } from 'node:child_process';

/** Runs a command to completion and returns its stdout; rejects with its stderr on a non-zero exit. */
export function run(cmd: string, args: string[], opts: ExecFileOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...opts, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${String(stderr) || err.message}`));
      else resolve(String(stdout));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it resolves true or `timeoutMs` passes; gives up at once when `unless` names a reason (the
 * process being waited for has exited, say).
 */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number, unless?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    const reason = unless?.();
    if (reason) throw new Error(`gave up waiting for ${what}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}
