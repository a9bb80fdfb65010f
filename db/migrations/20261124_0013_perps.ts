import type { Knex } from 'knex';

// Forward-only. The perps observatory (docs/perps-observatory.md): the live exchange's markets and mark-price
// buffer, watched wallets with their fills, snapshots and open positions, immutable entry rows and their
// judgments, liquidations, daily ranks, the pollers' progress; exchange_a's imported day files and trades, and
// the trader and market projections over them. Prices and amounts are float8: values come from JSON numbers and
// go back out as JSON numbers (and into ledger leaves) unchanged, which a float8 round-trips exactly.
export async function up(knex: Knex): Promise<void> {
  const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true });

  await knex.schema.createTable('perps_markets', (t) => {
    t.text('exchange').notNullable();
    t.text('market').notNullable();
    for (const c of ['mark_px', 'oracle_px', 'funding_rate_hourly', 'open_interest_base', 'open_interest_usd', 'volume_24h_usd', 'prev_day_px', 'max_leverage'])
      t.double(c).notNullable();
    t.double('mid_px');
    ts(t, 'updated_at').notNullable();
    t.primary(['exchange', 'market']);
  });

  await knex.schema.createTable('perps_mark_prices', (t) => {
    t.text('exchange').notNullable();
    t.text('market').notNullable();
    ts(t, 'at').notNullable();
    t.double('price').notNullable();
    t.primary(['exchange', 'market', 'at']);
  });

  // One row per poller (markets, snapshots, stream, rankings): what the observatory's status and an operator read.
  await knex.schema.createTable('perps_pollers', (t) => {
    t.text('name').primary();
    t.text('exchange').notNullable();
    ts(t, 'last_started_at');
    ts(t, 'last_ok_at');
    ts(t, 'last_error_at');
    t.text('last_error');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.jsonb('progress');
  });

  await knex.schema.createTable('perps_wallets', (t) => {
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    t.text('source').notNullable();
    ts(t, 'discovered_at').notNullable();
    t.boolean('watched').notNullable().defaultTo(true);
    // Set by the trades stream when a watched wallet trades: snapshotted first by the next sweep.
    ts(t, 'poked_at');
    ts(t, 'next_snapshot_at').notNullable();
    ts(t, 'last_snapshot_at');
    ts(t, 'last_active_at').notNullable();
    ts(t, 'fills_refreshed_at');
    t.bigInteger('last_fill_ms');
    t.jsonb('record');
    t.boolean('smart').notNullable().defaultTo(false);
    t.boolean('whale').notNullable().defaultTo(false);
    t.double('smart_score');
    t.double('roi_30d');
    t.text('rule_version');
    t.primary(['exchange', 'wallet']);
  });
  await knex.raw('CREATE INDEX perps_wallets_due ON perps_wallets (exchange, next_snapshot_at) WHERE watched');
  await knex.raw('CREATE INDEX perps_wallets_poked ON perps_wallets (exchange, poked_at) WHERE watched AND poked_at IS NOT NULL');
  await knex.raw('CREATE INDEX perps_wallets_evictable ON perps_wallets (exchange, last_active_at) WHERE watched AND NOT smart AND NOT whale');

  await knex.schema.createTable('perps_wallet_fills', (t) => {
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    t.text('fill_key').notNullable();
    t.bigInteger('time_ms').notNullable();
    t.text('market').notNullable();
    t.double('px').notNullable();
    t.double('size').notNullable();
    t.text('side').notNullable();
    t.double('start_position').notNullable();
    t.text('dir').notNullable();
    t.double('closed_pnl_usd').notNullable();
    t.double('fee_usd').notNullable();
    t.text('hash').notNullable();
    t.boolean('liquidation').notNullable();
    t.primary(['exchange', 'wallet', 'fill_key']);
    t.index(['exchange', 'wallet', 'time_ms']);
  });

  await knex.schema.createTable('perps_position_snapshots', (t) => {
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    ts(t, 'at').notNullable();
    t.double('account_value_usd').notNullable();
    t.jsonb('positions').notNullable();
    t.primary(['exchange', 'wallet', 'at']);
  });

  // The latest snapshot's positions, one row each: the wallet's open positions and the market's smart money.
  await knex.schema.createTable('perps_positions', (t) => {
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    t.text('market').notNullable();
    t.text('side').notNullable();
    for (const c of ['size', 'entry_px', 'position_value_usd', 'leverage']) t.double(c).notNullable();
    t.double('unrealized_pnl_usd');
    t.double('liquidation_px');
    ts(t, 'opened_at').notNullable();
    t.bigInteger('opening_entry_id');
    ts(t, 'updated_at').notNullable();
    t.primary(['exchange', 'wallet', 'market']);
    t.index(['exchange', 'market']);
  });

  // Immutable: an entry is what was claimed at detection; judgments and ledger leaves are built from these columns.
  await knex.schema.createTable('perps_entries', (t) => {
    t.bigIncrements('id').primary();
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    t.text('market').notNullable();
    t.text('side').notNullable();
    t.text('kind').notNullable();
    for (const c of ['size', 'position_size', 'entry_px', 'price_at_detection', 'position_value_usd', 'notional_usd', 'leverage']) t.double(c).notNullable();
    t.double('wallet_roi_30d');
    t.double('smart_score');
    t.boolean('smart').notNullable();
    t.boolean('whale').notNullable();
    t.text('rule_version').notNullable();
    t.text('entry_rule_version').notNullable();
    ts(t, 'detected_at').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    // Outbox: set once the entry's judging workflow has been started.
    ts(t, 'judging_started_at');
    t.unique(['exchange', 'wallet', 'market', 'detected_at']);
  });
  await knex.raw('CREATE INDEX perps_entries_market ON perps_entries (market, detected_at DESC)');
  await knex.raw('CREATE INDEX perps_entries_wallet ON perps_entries (wallet, detected_at DESC)');
  // The ledger's hourly range over smart entries, in leaf order (detected_at, id).
  await knex.raw('CREATE INDEX perps_entries_smart_ledger ON perps_entries (detected_at, id) WHERE smart');
  await knex.raw('CREATE INDEX perps_entries_unjudged ON perps_entries (id) WHERE smart AND judging_started_at IS NULL');

  await knex.schema.createTable('perps_entry_judgments', (t) => {
    t.bigInteger('entry_id').notNullable().references('perps_entries.id');
    t.text('horizon').notNullable();
    ts(t, 'due_at').notNullable();
    t.double('price').notNullable();
    ts(t, 'price_at').notNullable();
    t.double('move_bps').notNullable();
    t.boolean('win').notNullable();
    ts(t, 'judged_at').notNullable();
    t.primary(['entry_id', 'horizon']);
  });

  // The perps ledger track's hourly commits (domain/ledger's records, chained by prev_root), kept apart from the
  // audit ledger's own tables so the two areas land independently.
  await knex.schema.createTable('perps_ledger_commits', (t) => {
    ts(t, 'hour_start').primary();
    t.integer('leaf_version').notNullable();
    t.integer('leaf_count').notNullable();
    t.bigInteger('first_id').notNullable();
    t.bigInteger('last_id').notNullable();
    t.text('root_hex').notNullable();
    t.text('prev_root_hex');
    t.text('record_digest_hex').notNullable();
    ts(t, 'committed_at').notNullable();
  });

  await knex.schema.createTable('perps_win_sums', (t) => {
    t.text('scope').notNullable(); // overall | wallet | market
    t.text('key').notNullable();
    t.text('horizon').notNullable();
    t.integer('n').notNullable();
    t.integer('wins').notNullable();
    t.double('sum_move_bps').notNullable();
    t.primary(['scope', 'key', 'horizon']);
  });

  await knex.schema.createTable('perps_liquidations', (t) => {
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    t.text('market').notNullable();
    t.text('side').notNullable();
    t.double('size').notNullable();
    t.double('liquidation_px');
    t.double('mark_px');
    ts(t, 'at').notNullable();
    t.text('evidence').notNullable();
    t.primary(['exchange', 'wallet', 'market', 'at']);
  });

  await knex.schema.createTable('perps_wallet_ranks', (t) => {
    t.text('exchange').notNullable();
    t.text('wallet').notNullable();
    t.date('date').notNullable();
    t.integer('rank');
    t.double('smart_score');
    t.primary(['exchange', 'wallet', 'date']);
  });

  await knex.schema.createTable('exchange_a_files', (t) => {
    t.text('file_key').primary();
    t.text('market').notNullable();
    t.date('date').notNullable();
    t.text('status').notNullable(); // imported | missing | corrupt
    t.text('sha256');
    t.bigInteger('bytes');
    t.integer('rows').notNullable().defaultTo(0);
    t.double('volume_usd').notNullable().defaultTo(0);
    t.integer('traders').notNullable().defaultTo(0);
    t.boolean('gzipped');
    t.text('etag');
    ts(t, 'first_trade_at');
    ts(t, 'last_trade_at');
    ts(t, 'ingested_at').notNullable();
    t.text('error');
    t.index(['market', 'status', 'ingested_at']);
  });

  await knex.schema.createTable('exchange_a_trades', (t) => {
    t.text('market_type').notNullable();
    t.integer('market_index').notNullable();
    t.bigInteger('fill_record_id').notNullable();
    t.text('market').notNullable();
    t.text('file_key').notNullable();
    ts(t, 'at').notNullable();
    t.text('tx_sig').notNullable();
    t.bigInteger('slot').notNullable();
    t.text('action').notNullable();
    t.text('taker');
    t.text('taker_direction');
    t.text('maker');
    t.text('maker_direction');
    for (const c of ['base_amount', 'quote_amount_usd', 'oracle_price', 'taker_fee_usd', 'maker_fee_usd']) t.double(c).notNullable();
    t.primary(['market_type', 'market_index', 'fill_record_id']);
    t.index(['file_key']);
  });
  await knex.raw('CREATE INDEX exchange_a_trades_taker ON exchange_a_trades (taker, at) WHERE taker IS NOT NULL');
  await knex.raw('CREATE INDEX exchange_a_trades_maker ON exchange_a_trades (maker, at) WHERE maker IS NOT NULL');

  await knex.schema.createTable('exchange_a_traders', (t) => {
    t.text('trader').primary();
    t.integer('trades').notNullable();
    t.double('volume_usd').notNullable();
    t.double('fees_usd').notNullable();
    t.double('realized_pnl_usd').notNullable();
    t.integer('round_trips').notNullable();
    t.integer('wins').notNullable();
    ts(t, 'first_trade_at').notNullable();
    ts(t, 'last_trade_at').notNullable();
    t.jsonb('by_market').notNullable();
    ts(t, 'updated_at').notNullable();
  });

  await knex.schema.createTable('exchange_a_market_traders', (t) => {
    t.text('market').notNullable();
    t.text('trader').notNullable();
    t.primary(['market', 'trader']);
  });

  // Traders whose stats a file changed, recomputed after the import's files (and resumed after a crash).
  await knex.schema.createTable('exchange_a_dirty_traders', (t) => {
    t.text('trader').primary();
    // Bumped by every file that marks the trader: a recompute clears only the mark it read.
    t.bigInteger('version').notNullable().defaultTo(1);
    ts(t, 'marked_at').notNullable();
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
