import { startTelegramBotApiServer, type TelegramBotApiFake } from '../fakes/telegram-bot-api-server';
import { createTestDatabase } from './test-db';

type Testbed = { t: Awaited<ReturnType<typeof createTestDatabase>>; fake: TelegramBotApiFake };

/**
 * The bot tests' common ground: a fresh database and the local Telegram Bot API server for `token`, made before the
 * file's tests and closed after them; `set` hands both to the file's own variables.
 */
export function useTelegramTestbed(token: string, set: (bed: Testbed) => void): void {
  let bed: Testbed | undefined;
  beforeAll(async () => {
    bed = { t: await createTestDatabase(), fake: await startTelegramBotApiServer(token) };
    set(bed);
  });
  afterAll(async () => {
    await bed?.fake.close();
    await bed?.t.drop();
  });
}
