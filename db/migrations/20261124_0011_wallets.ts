import type { Knex } from 'knex';

// Forward-only. The wallet index (docs/wallet-index.md): one record per wallet that bought a resolved launch, what
// each resolved mint contributed to each buyer (so a retried or re-resolved mint never counts twice), the mints
// applied, the smart score versions (data: their priors), the index's state, and the rank groups of the smart order.
// Wallet keys are text in COLLATE "C": every base58 character sorts below '{', so the primary key serves a
// 12-character prefix as the range [prefix, prefix || '{').
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE wallet_records (
    wallet text COLLATE "C" PRIMARY KEY,
    total int NOT NULL, graduated int NOT NULL, ran int NOT NULL, mid int NOT NULL, rugged int NOT NULL,
    fast_snipes int NOT NULL, sniped_rugged int NOT NULL, early int NOT NULL, early_graduated int NOT NULL,
    buys int NOT NULL, sol_invested_lamports bigint NOT NULL,
    first_seen_at timestamptz NOT NULL, last_seen_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);

  // Keyed (mint, wallet): every write and read of it is per mint (resolution, re-resolution, the rebuild's batches).
  await knex.raw(`CREATE TABLE wallet_mint_contributions (
    mint text COLLATE "C" NOT NULL, wallet text COLLATE "C" NOT NULL,
    buys int NOT NULL, sol_invested_lamports bigint NOT NULL,
    first_buy_at timestamptz NOT NULL, last_buy_at timestamptz NOT NULL,
    fast_snipe bool NOT NULL, early bool NOT NULL, graduated bool NOT NULL, rugged bool NOT NULL, ran bool NOT NULL,
    PRIMARY KEY (mint, wallet))`);

  // One row per applied mint: the versions and labels it was applied with, and the horizon its trades were read to.
  // Its row lock serialises two applications of one mint (a retry overlapping the first attempt, a rebuild's catch-up).
  await knex.raw(`CREATE TABLE wallet_index_mints (
    mint text COLLATE "C" PRIMARY KEY,
    contribution_version text NOT NULL, label_version text NOT NULL, rug_label_version text NOT NULL,
    graduated bool NOT NULL, rugged bool NOT NULL, buyers int NOT NULL,
    horizon_at timestamptz NOT NULL, applied_at timestamptz NOT NULL)`);
  await knex.raw('CREATE INDEX wallet_index_mints_applied_at ON wallet_index_mints (applied_at)');

  // How many records each table set holds (`live`, and `next` while a rebuild fills it): /api/v1/stats reads it
  // instead of counting millions of rows.
  await knex.raw(`CREATE TABLE wallet_index_counts (name text PRIMARY KEY, wallets bigint NOT NULL)`);
  await knex.raw(`INSERT INTO wallet_index_counts (name, wallets) VALUES ('live', 0)`);

  // smart_score = (g − r + k·(p_g − p_r)) / (n + k): a version is its priors. Records are never rewritten for a
  // version; its leaderboard indexes are expression indexes built by the rebuild that activates it.
  await knex.raw(`CREATE TABLE wallet_score_versions (
    id text PRIMARY KEY CHECK (id ~ '^smart-v[0-9]+$'),
    prior_graduation_rate float8 NOT NULL, prior_rug_rate float8 NOT NULL, prior_strength float8 NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`);
  await knex.raw(`INSERT INTO wallet_score_versions (id, prior_graduation_rate, prior_rug_rate, prior_strength) VALUES ('smart-v1', 0.01, 0.21, 5)`);

  // The one row saying which score version the API publishes, and which rebuild (if any) owns the `_next` tables.
  await knex.raw(`CREATE TABLE wallet_index_state (
    id bool PRIMARY KEY DEFAULT true CHECK (id),
    score_version text NOT NULL REFERENCES wallet_score_versions (id),
    contribution_version text NOT NULL,
    rebuilt_at timestamptz,
    rebuild_id text,
    rebuild_started_at timestamptz)`);
  await knex.raw(`INSERT INTO wallet_index_state (score_version, contribution_version) VALUES ('smart-v1', 'wallet-v1')`);

  // Ranked wallets (total >= 8) grouped by (smart score, sample size), with how many rank strictly ahead of each
  // group: a wallet's rank is one index probe, refreshed by a Schedule instead of counted per request.
  await knex.raw(`CREATE TABLE wallet_rank_groups (
    score_version text NOT NULL, score float8 NOT NULL, total int NOT NULL, ahead bigint NOT NULL, size bigint NOT NULL,
    PRIMARY KEY (score_version, score, total))`);
  await knex.raw(`CREATE TABLE wallet_rank_snapshots (
    score_version text PRIMARY KEY, ranked bigint NOT NULL, groups int NOT NULL, built_at timestamptz NOT NULL)`);

  // Leaderboard indexes of smart-v1, sniper-v1 and service-v1 (domain/wallets/leaderboards.ts, leaderboardIndexSql):
  // per kind one over total >= 8 and one below, each ordered like its query. Written out: a migration never changes.
  const smart = `(((graduated - rugged)::float8 + '-1'::float8) / (total + '5'::float8))`;
  const sniper = `((sniped_rugged::float8 + '1.05'::float8) / (fast_snipes + '5'::float8))`;
  const service = `((early_graduated::float8 + '0.05'::float8) / (total + '5'::float8))`;
  for (const [range, where] of [
    ['from', 'total >= 8'],
    ['below', 'total >= 1 AND total < 8'],
  ] as const) {
    await knex.raw(`CREATE INDEX wallet_records_smart_v1_${range}_8 ON wallet_records (${smart} DESC, total DESC, wallet) WHERE ${where} AND true`);
    await knex.raw(
      `CREATE INDEX wallet_records_sniper_v1_${range}_8 ON wallet_records (${sniper} DESC, fast_snipes DESC, wallet, total) WHERE ${where} AND (10 * fast_snipes >= 7 * total)`,
    );
    await knex.raw(
      `CREATE INDEX wallet_records_service_v1_${range}_8 ON wallet_records (${service} DESC, early_graduated DESC, wallet, total) WHERE ${where} AND (early_graduated >= 1)`,
    );
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
