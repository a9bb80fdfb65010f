import { z } from 'zod';

/**
 * One area's settings: the environment variables it reads (a zod shape, with their defaults) and the typed
 * section of `Config` they become. platform/config.ts composes every area's settings into the one Config.
 * A variable two areas read (SOLANA_RPC_URL) is declared once and shared by reference, never copied.
 */
export type Settings<S extends z.ZodRawShape, Section> = { env: S; section: (e: z.output<z.ZodObject<S>>) => Section };

export const defineSettings = <S extends z.ZodRawShape, Section>(env: S, section: (e: z.output<z.ZodObject<S>>) => Section): Settings<S, Section> => ({
  env,
  section,
});

/** A setting whose value is well-formed but cannot work with the others: stops the process, naming it. */
export function invalidSetting(name: string, message: string): never {
  throw new Error(`Invalid configuration:\n  ${name}: ${message}`);
}

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const port = () => z.coerce.number().int().min(0).max(65535);

/** Comma-separated values, trimmed, empty ones dropped. */
export const csv = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
