import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver';
import { createTestDatabase } from './test-db';
import { isolateWebhookIds } from './webhook-fixtures';
import { startWorker } from './worker-harness';
import type { KnexDb } from '../../db/knex-handle';

export type WebhookWorld = { db: KnexDb; w: Awaited<ReturnType<typeof startWorker>>; rx: WebhookReceiver };

/**
 * A test file's webhook world: its own database (webhook ids kept apart from other files'), a worker delivering to
 * loopback with quick retries, and a receiver. Registers its own set-up and tear-down; read it inside tests.
 */
export function useWebhookWorld(): WebhookWorld {
  const world = {} as WebhookWorld;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    world.db = database.db;
    await isolateWebhookIds(world.db);
    world.rx = await startWebhookReceiver();
    world.w = await startWorker(world.db, {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE_S: '0,1,1', WEBHOOK_ATTEMPT_TIMEOUT_MS: '5000' },
    });
  }, 60_000);
  afterAll(async () => {
    await world.w?.stop();
    await world.rx?.close();
    await database?.drop();
  });
  return world;
}
