/**
 * Walks a transaction's log lines the way the runtime writes them and returns the `Program data:` payloads
 * logged while `programId` was the executing program. Invocations nest (`invoke [depth]`), so the payload
 * belongs to the innermost running program, not to whichever program appears in the line.
 */
const INVOKE = /^Program (\S+) invoke \[(\d+)\]$/;
const EXIT = /^Program (\S+) (?:success|failed\b.*)$/;
const DATA = 'Program data: ';

export function walkProgramData(logs: readonly string[], programId: string): { payloads: string[]; truncated: boolean } {
  const stack: string[] = [];
  const payloads: string[] = [];
  let truncated = false;
  for (const line of logs) {
    const invoke = INVOKE.exec(line);
    if (invoke) {
      // The depth resynchronises the stack should an exit line be missing.
      stack.length = Math.max(0, Number(invoke[2]) - 1);
      stack.push(invoke[1]!);
      continue;
    }
    if (EXIT.test(line)) {
      stack.pop();
      continue;
    }
    if (line.startsWith(DATA)) {
      if (stack[stack.length - 1] === programId) payloads.push(line.slice(DATA.length));
      continue;
    }
    if (line === 'Log truncated') truncated = true;
  }
  return { payloads, truncated };
}
