import { inspect } from 'node:util';
import bs58 from 'bs58';
import { z } from 'zod';
import { ingestSettings } from './ingest-settings';
import { defineSettings, invalidSetting } from './settings';

/**
 * A secret that stays out of logs, error messages and JSON: printing the config, or serialising it, shows
 * `[redacted]`; only `reveal()` hands the value to the one place that signs with it.
 */
export class Secret<T> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return '[redacted]';
  }
}

/** Where the anchoring key comes from: a Solana CLI keypair file (read by the worker at start) or a base58 64-byte secret. */
export type AnchorKeySource = { kind: 'file'; path: string } | { kind: 'base58'; secret: Secret<Uint8Array> };

/**
 * The audit trail: when a closed hour is committed, how often the scheduler looks, and the optional on-chain
 * anchoring of each root (a Solana memo signed by the configured key, sent through `LEDGER_ANCHOR_RPC_URL`).
 */
export const ledgerSettings = defineSettings(
  {
    SOLANA_RPC_URL: ingestSettings.env.SOLANA_RPC_URL,
    /**
     * How long after an hour closes it is sealed and committed. Prediction timestamps come from the scoring
     * activity's clock just before its insert, so this must exceed any realistic gap between the two (README, Ledger).
     */
    LEDGER_GRACE_S: z.coerce.number().int().min(60).max(86_400).default(600),
    /** How often the ledger Schedule looks for hours to seal, commit and anchor. */
    LEDGER_COMMIT_EVERY_S: z.coerce.number().int().min(5).max(3600).default(60),
    /** The anchoring key as a Solana CLI keypair file (a JSON array of 64 bytes). Unset with the next: no anchoring. */
    LEDGER_ANCHOR_KEYPAIR_PATH: z.string().min(1).optional(),
    /** The anchoring key as a base58 64-byte secret key (as wallets export it). Never logged. */
    LEDGER_ANCHOR_SECRET_KEY: z.string().min(1).optional(),
    /** The JSON-RPC node memo transactions are sent through (defaults to SOLANA_RPC_URL). */
    LEDGER_ANCHOR_RPC_URL: z.string().url().optional(),
  },
  (e) => {
    if (e.LEDGER_ANCHOR_KEYPAIR_PATH && e.LEDGER_ANCHOR_SECRET_KEY) {
      invalidSetting('LEDGER_ANCHOR_SECRET_KEY', 'set either LEDGER_ANCHOR_KEYPAIR_PATH or LEDGER_ANCHOR_SECRET_KEY, not both');
    }
    let key: AnchorKeySource | null = null;
    if (e.LEDGER_ANCHOR_KEYPAIR_PATH) key = { kind: 'file', path: e.LEDGER_ANCHOR_KEYPAIR_PATH };
    if (e.LEDGER_ANCHOR_SECRET_KEY) key = { kind: 'base58', secret: new Secret(decodeSecretKey(e.LEDGER_ANCHOR_SECRET_KEY)) };
    return {
      ledger: {
        graceS: e.LEDGER_GRACE_S,
        commitEveryS: e.LEDGER_COMMIT_EVERY_S,
        anchor: key && { key, rpcUrl: e.LEDGER_ANCHOR_RPC_URL ?? e.SOLANA_RPC_URL },
      },
    };
  },
);

/** The 64 bytes of a base58 secret key; the message never repeats the value. */
function decodeSecretKey(text: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text.trim());
  } catch {
    return invalidSetting('LEDGER_ANCHOR_SECRET_KEY', 'not base58');
  }
  if (bytes.length !== 64) invalidSetting('LEDGER_ANCHOR_SECRET_KEY', `a Solana secret key is 64 bytes, this one decodes to ${bytes.length}`);
  return bytes;
}
