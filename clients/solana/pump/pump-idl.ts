import fs from 'node:fs';
import type { Idl } from '@coral-xyz/anchor';
import { z } from 'zod';

/** The launchpad program (pump.fun bonding curves). */
export const PUMP_PROGRAM_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';

/**
 * Only what the event decoder relies on is checked here: an IDL of another shape (a pre-0.30 Anchor IDL has no
 * `address` and no discriminators) must stop the process at start-up, not decode garbage later.
 */
const idlShape = z
  .object({
    address: z.string(),
    metadata: z.object({ name: z.string(), version: z.string(), spec: z.string() }).passthrough(),
    events: z.array(z.object({ name: z.string(), discriminator: z.array(z.number().int().min(0).max(255)).length(8) })),
    types: z.array(z.object({ name: z.string(), type: z.object({ kind: z.string() }).passthrough() }).passthrough()),
  })
  .passthrough();

/**
 * Reads the launchpad's published Anchor IDL. The path comes from configuration: production ships the file with
 * the service; tests pass the copy under ../shared/data.
 */
export function loadPumpIdl(filePath: string, expectedProgramId: string = PUMP_PROGRAM_ID): Idl {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(filePath, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the launchpad IDL at ${filePath}: ${(e as Error).message}`, { cause: e });
  }
  const parsed = idlShape.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${filePath} is not an Anchor ≥0.30 IDL: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  if (parsed.data.address !== expectedProgramId) {
    throw new Error(`${filePath} describes program ${parsed.data.address}, expected ${expectedProgramId}`);
  }
  return json as Idl;
}
