import { randomBytes } from 'node:crypto';
import { digestsEqual, generateApiKey, hashApiKey, parseApiKey, type RandomBytes } from '../../domain/access/api-key-format';
import { applyPlanGrant } from '../../domain/access/plan-grant';
import type { Plan, Tier } from '../../domain/access/tiers';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

export type KeySource = 'upgrade' | 'wallet_signup' | 'admin';

/** A key as the rest of the code sees it: never its plaintext, never its hash. */
export type ApiKeyRecord = {
  id: number;
  prefix: string;
  tier: Tier;
  plan: Plan | null;
  customDailyQuota: number | null;
  planExpiresAt: Date | null;
  wallet: string | null;
  walletLinkedAt: Date | null;
  holderBalance: number | null;
  holderCheckedAt: Date | null;
  source: KeySource;
  createdAt: Date;
  revokedAt: Date | null;
  /**
   * The memo of the payment intent this key was minted for, until the key's first paid plan is granted; while set,
   * the key authenticates nothing. Null for a usable key.
   */
  awaitingPaymentOf: string | null;
};

export type IssueKeyInput = {
  tier?: Tier;
  plan?: Plan | null;
  planExpiresAt?: Date | null;
  /** Required for Enterprise keys (their quota is by contract). */
  customDailyQuota?: number | null;
  source: KeySource;
  /** A key minted with a payment intent: unusable until a plan is granted to it (that intent's payment, or a later one). */
  awaitingPaymentOf?: string;
};

export type ExtendPlanInput = {
  keyId: number;
  /** Caller's dedupe id, e.g. `payment:<memo>`: a grant with this id is applied once, however often it is retried. */
  grantId: string;
  tier: Exclude<Tier, 'free'>;
  plan?: Plan | null;
  days: number;
  now?: Date;
};
export type ExtendPlanResult = { applied: boolean; tier: Tier; plan: Plan | null; planExpiresAt: Date | null };

/** The key does not exist or was revoked; a permanent condition (activities should not retry it). */
export class ApiKeyUnavailableError extends Error {
  constructor(
    readonly keyId: number,
    reason: 'unknown' | 'revoked',
  ) {
    super(`api key ${keyId} is ${reason}`);
    this.name = 'ApiKeyUnavailableError';
  }
}

type Row = {
  id: number;
  key_prefix: string;
  key_hash: Buffer;
  tier: Tier;
  plan: Plan | null;
  custom_daily_quota: number | null;
  plan_expires_at: Date | null;
  wallet: string | null;
  wallet_linked_at: Date | null;
  holder_balance: number | null;
  holder_checked_at: Date | null;
  source: KeySource;
  created_at: Date;
  revoked_at: Date | null;
  awaiting_payment_of: string | null;
};

const toRecord = (r: Row): ApiKeyRecord => ({
  id: Number(r.id),
  prefix: r.key_prefix,
  tier: r.tier,
  plan: r.plan,
  customDailyQuota: r.custom_daily_quota,
  planExpiresAt: r.plan_expires_at,
  wallet: r.wallet,
  walletLinkedAt: r.wallet_linked_at,
  holderBalance: r.holder_balance === null ? null : Number(r.holder_balance),
  holderCheckedAt: r.holder_checked_at,
  source: r.source,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  awaitingPaymentOf: r.awaiting_payment_of,
});

const UNIQUE_VIOLATION = '23505';

/** API keys: issued with a plaintext shown once, found by plaintext in constant time, plans extended idempotently. */
export function createApiKeyStore(handle: Db, o: { random?: RandomBytes; now?: () => Date } = {}) {
  const db = knexOf(handle);
  const random = o.random ?? ((n: number) => randomBytes(n));
  const clock = o.now ?? (() => new Date());

  return {
    /** Mints a key. The plaintext is returned here only; the database keeps its SHA-256. */
    async issueKey(input: IssueKeyInput): Promise<{ id: number; prefix: string; plaintext: string }> {
      const tier = input.tier ?? 'free';
      if (tier === 'enterprise' && (input.customDailyQuota ?? null) === null) throw new Error('an enterprise key needs customDailyQuota');
      for (let attempt = 0; ; attempt++) {
        const key = generateApiKey(random);
        try {
          const [row] = await db('api_keys')
            .insert({
              key_prefix: key.prefix,
              key_hash: Buffer.from(key.hash),
              tier,
              plan: input.plan ?? null,
              custom_daily_quota: input.customDailyQuota ?? null,
              plan_expires_at: input.planExpiresAt ?? null,
              source: input.source,
              created_at: clock(),
              awaiting_payment_of: input.awaitingPaymentOf ?? null,
            })
            .returning('id');
          return { id: Number(row.id), prefix: key.prefix, plaintext: key.plaintext };
        } catch (e) {
          // A prefix collision (58^10 ids) is astronomically rare; draw again rather than fail.
          if ((e as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= 2) throw e;
        }
      }
    },

    /** The live (not revoked) key with this plaintext; undefined for anything else, malformed input included. */
    async findByPlaintext(plaintext: string): Promise<ApiKeyRecord | undefined> {
      const parsed = parseApiKey(plaintext);
      if (!parsed) return undefined;
      const row: Row | undefined = await db('api_keys').where({ key_prefix: parsed.prefix }).first();
      if (!row || row.revoked_at !== null) return undefined;
      return digestsEqual(row.key_hash, hashApiKey(plaintext)) ? toRecord(row) : undefined;
    },

    async getById(id: number): Promise<ApiKeyRecord | undefined> {
      const row: Row | undefined = await db('api_keys').where({ id }).first();
      return row ? toRecord(row) : undefined;
    },

    async getByPrefix(prefix: string): Promise<ApiKeyRecord | undefined> {
      const row: Row | undefined = await db('api_keys').where({ key_prefix: prefix }).first();
      return row ? toRecord(row) : undefined;
    },

    /**
     * Activates or extends the key's plan by `days` (rules in domain/access/plan-grant.ts: same tier →
     * max(now, current end) + days). Idempotent on `grantId`: a repeated call changes nothing and answers the
     * key's plan with `applied: false`.
     */
    async extendPlan(input: ExtendPlanInput): Promise<ExtendPlanResult> {
      const now = input.now ?? clock();
      return db.transaction(async (trx) => {
        // The row lock serialises concurrent grants for one key, so the grant lookup below sees any earlier one.
        const row: Row | undefined = await trx('api_keys').where({ id: input.keyId }).forUpdate().first();
        if (!row) throw new ApiKeyUnavailableError(input.keyId, 'unknown');
        const key = toRecord(row);
        const prior = await trx('api_key_plan_grants').where({ grant_id: input.grantId }).first('key_id');
        if (prior) {
          if (Number(prior.key_id) !== key.id) throw new Error(`grant ${input.grantId} was already applied to another key`);
          return { applied: false, tier: key.tier, plan: key.plan, planExpiresAt: key.planExpiresAt };
        }
        if (key.revokedAt) throw new ApiKeyUnavailableError(key.id, 'revoked');
        const next = applyPlanGrant(key, { tier: input.tier, plan: input.plan ?? null, days: input.days }, now);
        await trx('api_key_plan_grants').insert({
          grant_id: input.grantId,
          key_id: key.id,
          tier: input.tier,
          plan: input.plan ?? null,
          days: input.days,
          expires_before: key.planExpiresAt,
          expires_after: next.planExpiresAt,
          granted_at: now,
        });
        // A granted plan is a paid (or contracted) one: a key minted with an unpaid intent becomes usable here.
        await trx('api_keys')
          .where({ id: key.id })
          .update({ tier: next.tier, plan: next.plan, plan_expires_at: next.planExpiresAt, awaiting_payment_of: null });
        return { applied: true, ...next };
      });
    },

    /**
     * Links (or relinks) a wallet to the key and credits the balance just read (null when the read failed). A wallet
     * backs one live key at a time: any other key it was linked to loses it, and with it the holder credit.
     */
    async linkWallet(id: number, wallet: string, balance: number | null, at: Date = clock()): Promise<ApiKeyRecord | undefined> {
      return db.transaction(async (trx) => {
        // Two links of one wallet at once would both clear the other key and then meet at the unique index; the lock orders them.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`wallet-link:${wallet}`]);
        const live = await trx('api_keys').where({ id }).whereNull('revoked_at').forUpdate().first('id');
        if (!live) return undefined;
        // Cleared first: the unique index on live keys' wallets is checked at each statement.
        await trx('api_keys')
          .where({ wallet })
          .whereNot({ id })
          .whereNull('revoked_at')
          .update({ wallet: null, wallet_linked_at: null, holder_balance: null, holder_checked_at: null });
        const [row] = await trx('api_keys')
          .where({ id })
          .update({ wallet, wallet_linked_at: at, holder_balance: balance, holder_checked_at: balance === null ? null : at })
          .returning('*');
        return toRecord(row);
      });
    },

    /** Records a re-read balance of the key's linked wallet; a relink since the read (other wallet) wins. */
    async creditHolderBalance(id: number, wallet: string, balance: number, at: Date = clock()): Promise<boolean> {
      const n = await db('api_keys').where({ id, wallet }).whereNull('revoked_at').update({ holder_balance: balance, holder_checked_at: at });
      return n > 0;
    },

    /** Live keys with a linked wallet, in id order, a page at a time (the holder re-check walks them). */
    async keysWithWallets(afterId: number, limit: number): Promise<{ id: number; wallet: string; holderBalance: number | null }[]> {
      const rows = await db('api_keys')
        .whereNotNull('wallet')
        .whereNull('revoked_at')
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .select('id', 'wallet', 'holder_balance');
      return rows.map((r) => ({ id: Number(r.id), wallet: r.wallet, holderBalance: r.holder_balance === null ? null : Number(r.holder_balance) }));
    },

    /**
     * Records on the key that its paid plan ran out: plans lapse by time alone (planTierAt reads them so), this
     * makes the row say so too. False when the plan was renewed, never paid, or already recorded.
     */
    async lapsePlan(id: number, at: Date = clock()): Promise<boolean> {
      const n = await db('api_keys')
        .where({ id })
        .whereIn('tier', ['builder', 'pro'])
        .whereNotNull('plan_expires_at')
        .where('plan_expires_at', '<=', at)
        .update({ tier: 'free', plan: null });
      return n > 0;
    },

    async revoke(id: number, at: Date = clock()): Promise<void> {
      await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: at });
    },
  };
}
export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
