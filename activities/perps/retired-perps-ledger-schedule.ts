import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { Logger } from '../../platform/logger';

/** The Schedule of the perps area's own ledger chain, retired when the perps track joined the audit ledger (migration 0026). */
export const RETIRED_PERPS_LEDGER_SCHEDULE_ID = 'schedule:perps-ledger';

/**
 * Deletes the retired Schedule, if a deployment still has it: its workflow type (`perpsLedgerCommit`) is no longer
 * registered, so its runs would only fail. The ledger's own Schedule (`schedule:ledger`) commits the perps track now.
 * Idempotent; a Temporal that cannot be reached leaves it for the next worker start (a failed run costs nothing).
 */
export async function retirePerpsLedgerSchedule(temporal: Client, log: Pick<Logger, 'info' | 'warn'>): Promise<boolean> {
  try {
    await temporal.schedule.getHandle(RETIRED_PERPS_LEDGER_SCHEDULE_ID).delete();
    log.info({ scheduleId: RETIRED_PERPS_LEDGER_SCHEDULE_ID }, 'perps: retired the perps ledger schedule (the audit ledger commits the perps track)');
    return true;
  } catch (e) {
    if (!(e instanceof ScheduleNotFoundError)) log.warn({ err: e }, 'perps: the retired perps ledger schedule could not be deleted now');
    return false;
  }
}
