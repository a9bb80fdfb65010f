import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { RETIRED_PERPS_LEDGER_SCHEDULE_ID, retirePerpsLedgerSchedule } from '../../../activities/perps/retired-perps-ledger-schedule';
import { createLogger } from '../../../platform/logger';
import { waitFor } from '../../../scripts/lib/run';
import { ensureSchedules } from '../../../workflows/schedule-starter';
import { readTestEnv } from '../../support/test-env';

/**
 * A deployment that ran the perps area's own ledger chain still has its Schedule on the Temporal server; the perps
 * area's worker start deletes it (its workflow type is gone: the audit ledger commits the perps track), once.
 */
let connection: Connection;
let client: Client;
beforeAll(async () => {
  connection = await Connection.connect({ address: readTestEnv().temporalAddress });
  client = new Client({ connection, namespace: 'default' });
});
afterAll(async () => {
  await connection.close();
});

it('deletes the retired perps ledger Schedule when it exists, and does nothing when it does not', async () => {
  const log = createLogger('silent', 'perps-test');
  await ensureSchedules(client, 'perps-retired-schedule-test', [
    { scheduleId: RETIRED_PERPS_LEDGER_SCHEDULE_ID, workflowType: 'perpsLedgerCommit', workflowIdPrefix: 'perps-ledger', everyS: 600, runTimeoutS: 600 },
  ]);
  expect((await client.schedule.getHandle(RETIRED_PERPS_LEDGER_SCHEDULE_ID).describe()).action).toMatchObject({ workflowType: 'perpsLedgerCommit' });
  expect(await retirePerpsLedgerSchedule(client, log)).toBe(true);
  // The server removes a deleted Schedule shortly after answering the delete.
  const gone = async () =>
    client.schedule
      .getHandle(RETIRED_PERPS_LEDGER_SCHEDULE_ID)
      .describe()
      .then(
        () => false,
        (e) => e instanceof ScheduleNotFoundError,
      );
  await waitFor('the schedule to be gone', gone, 10_000);
  expect(await retirePerpsLedgerSchedule(client, log)).toBe(false);
});
