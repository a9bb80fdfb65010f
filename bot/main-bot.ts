import { migrateToLatest } from '../db/migrate';
import { loadConfig, requireSetting } from '../platform/config';
import { createDb } from '../platform/db';
import { asDb } from '../db/knex-handle';
import { createLogger } from '../platform/logger';
import { connectTemporalClient } from '../platform/temporal-connection';
import { buildBot } from './build-bot';
import { onStopSignal, runProcess } from '../platform/process-lifecycle';

/**
 * Composition root of the messaging bot: receives Telegram updates (long polling, or a webhook listener) and runs
 * their commands against the database; replies are queued for the worker's sender activity. Without a bot token (or
 * with BOT_UPDATES_MODE=off) it has nothing to receive and idles until stopped, so a deployment may run it unconfigured.
 */
async function main() {
  const cfg = loadConfig();
  const log = createLogger(cfg.logLevel, 'bot');
  const db = asDb(createDb(requireSetting(cfg.databaseUrl, 'DATABASE_URL'), cfg.dbPoolMax));
  await migrateToLatest(db);
  // /upgrade and /link wallet start workflows through their starters.
  const temporal = await connectTemporalClient(requireSetting(cfg.temporal.address, 'TEMPORAL_ADDRESS'), cfg.temporal.namespace);
  const bot = buildBot({ cfg, db, log, now: () => new Date(), temporal });
  const stop = await bot.start();
  // Nothing else keeps an unconfigured bot's event loop alive, and a supervisor would restart it if it exited.
  const idle = bot.poller || bot.webhook ? undefined : setInterval(() => undefined, 3_600_000);
  log.info({ mode: bot.webhook ? 'webhook' : bot.poller ? 'polling' : 'idle (no TELEGRAM_BOT_TOKEN, or BOT_UPDATES_MODE=off)' }, 'bot started');

  onStopSignal(async () => {
    clearInterval(idle);
    await stop();
    await temporal.connection.close();
    await db.destroy();
    log.info('bot stopped');
  });
}

runProcess(main);
