/** The part of a Telegram update the bot reads (a private text message). */
export type BotUpdate = { update_id: number; message?: { message_id: number; chat: { id: number; type: string }; text?: string } };
