import type { Knex } from 'knex';
import { mintContributions, WALLET_CONTRIBUTION_VERSION, type ResolvedMintTrades } from '../../domain/wallets/wallet-contribution';
import type { WalletTableSet } from './wallet-tables';

export type ApplyResult = { mints: number; buyers: number; walletsChanged: number; walletsAdded: number; walletsRemoved: number };

const COUNTS = ['total', 'graduated', 'ran', 'mid', 'rugged', 'fast_snipes', 'sniped_rugged', 'early', 'early_graduated', 'buys', 'sol_invested_lamports'];
const FACTS = ['buys', 'sol_invested_lamports', 'first_buy_at', 'last_buy_at', 'fast_snipe', 'early', 'graduated', 'rugged', 'ran'];

/**
 * The one statement that brings the records in line with what these mints contribute now (docs/wallet-index.md §6):
 * it compares the contributions applied before with the new ones per (mint, wallet), writes the new ones, deletes
 * vanished ones, and adds each wallet's summed signed delta to its record, wallets in address order (two
 * applications sharing buyers take row locks in one order and cannot deadlock). Every sub-statement sees the
 * snapshot taken before the statement, so `applied` is what was applied before this run: a retry with the same
 * inputs adds zero to every count, and a re-resolved mint whose label changed moves its buyers' counts, once.
 * The same arithmetic in TypeScript is `resolutionDeltas` (domain/wallets/wallet-record.ts), tested as the reference.
 */
function applySql(t: WalletTableSet): string {
  const diff = (n: string, a: string) => `coalesce(${n}, 0) - coalesce(${a}, 0)`;
  return `
WITH next AS (
  SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::bigint[], ?::timestamptz[], ?::timestamptz[], ?::bool[], ?::bool[], ?::bool[], ?::bool[], ?::bool[])
    AS n(mint, wallet, buys, sol_invested_lamports, first_buy_at, last_buy_at, fast_snipe, early, graduated, rugged, ran)),
applied AS (
  SELECT mint, wallet, ${FACTS.join(', ')} FROM ${t.contributions} WHERE mint = ANY(?::text[])),
pair AS (
  SELECT coalesce(n.wallet, a.wallet) AS wallet,
    (n.wallet IS NOT NULL)::int - (a.wallet IS NOT NULL)::int AS total,
    ${diff('n.graduated::int', 'a.graduated::int')} AS graduated,
    ${diff('n.ran::int', 'a.ran::int')} AS ran,
    ${diff('(NOT n.graduated AND NOT n.rugged)::int', '(NOT a.graduated AND NOT a.rugged)::int')} AS mid,
    ${diff('n.rugged::int', 'a.rugged::int')} AS rugged,
    ${diff('n.fast_snipe::int', 'a.fast_snipe::int')} AS fast_snipes,
    ${diff('(n.fast_snipe AND n.rugged)::int', '(a.fast_snipe AND a.rugged)::int')} AS sniped_rugged,
    ${diff('n.early::int', 'a.early::int')} AS early,
    ${diff('(n.early AND n.graduated)::int', '(a.early AND a.graduated)::int')} AS early_graduated,
    ${diff('n.buys', 'a.buys')} AS buys,
    ${diff('n.sol_invested_lamports', 'a.sol_invested_lamports')} AS sol_invested_lamports,
    n.first_buy_at, n.last_buy_at,
    -- a taken-back contribution never moves the seen bounds; a new or re-timed one widens them
    (n.wallet IS NOT NULL AND (a.wallet IS NULL OR n.first_buy_at <> a.first_buy_at OR n.last_buy_at <> a.last_buy_at)) AS moved
  FROM next n FULL JOIN applied a ON a.mint = n.mint AND a.wallet = n.wallet),
delta AS (
  SELECT wallet, ${COUNTS.map((c) => `sum(${c})::${c === 'sol_invested_lamports' ? 'bigint' : 'int'} AS ${c}`).join(', ')},
    min(first_buy_at) AS first_buy_at, max(last_buy_at) AS last_buy_at, bool_or(moved) AS moved
  FROM pair GROUP BY wallet),
kept AS (
  INSERT INTO ${t.contributions} AS c (mint, wallet, ${FACTS.join(', ')})
  SELECT * FROM next
  ON CONFLICT (mint, wallet) DO UPDATE SET ${FACTS.map((f) => `${f} = excluded.${f}`).join(', ')}
  WHERE (${FACTS.map((f) => `c.${f}`).join(', ')}) IS DISTINCT FROM (${FACTS.map((f) => `excluded.${f}`).join(', ')})),
gone AS (
  DELETE FROM ${t.contributions} c USING applied a
  WHERE c.mint = a.mint AND c.wallet = a.wallet AND NOT EXISTS (SELECT 1 FROM next n WHERE n.mint = a.mint AND n.wallet = a.wallet)),
changed AS (
  INSERT INTO ${t.records} AS r (wallet, ${COUNTS.join(', ')}, first_seen_at, last_seen_at, updated_at)
  SELECT wallet, ${COUNTS.join(', ')}, coalesce(first_buy_at, 'infinity'), coalesce(last_buy_at, '-infinity'), now()
  FROM delta
  WHERE moved OR (${COUNTS.join(', ')}) <> (${COUNTS.map(() => '0').join(', ')})
  ORDER BY wallet
  ON CONFLICT (wallet) DO UPDATE SET ${COUNTS.map((c) => `${c} = r.${c} + excluded.${c}`).join(', ')},
    first_seen_at = least(r.first_seen_at, excluded.first_seen_at),
    last_seen_at = greatest(r.last_seen_at, excluded.last_seen_at),
    updated_at = excluded.updated_at
  RETURNING r.wallet, r.total, (xmax = 0) AS inserted)
SELECT count(*)::int AS changed, (count(*) FILTER (WHERE inserted))::int AS added,
  coalesce(array_agg(wallet) FILTER (WHERE total = 0), '{}') AS emptied
FROM changed`;
}

/**
 * Applies resolved mints to one table set inside the caller's transaction: first each mint's row in the set's
 * `mints` table (versions, labels, horizon; its row lock serialises two applications of one mint until commit),
 * then the statement above for all of them at once, then the record count. A record left without any launch (every
 * contribution taken back) is removed, so the count is of wallets with at least one resolved launch.
 */
export async function applyResolvedMints(trx: Knex.Transaction, t: WalletTableSet, resolved: readonly ResolvedMintTrades[]): Promise<ApplyResult> {
  if (!resolved.length) return { mints: 0, buyers: 0, walletsChanged: 0, walletsAdded: 0, walletsRemoved: 0 };
  const perMint = resolved.map((r) => ({ r, contributions: mintContributions(r) })).sort((a, b) => (a.r.create.mint < b.r.create.mint ? -1 : 1));
  const col = <T>(f: (x: (typeof perMint)[number]) => T) => perMint.map(f);
  await trx.raw(
    `INSERT INTO ${t.mints} (mint, contribution_version, label_version, rug_label_version, graduated, rugged, buyers, horizon_at, applied_at)
     SELECT m.*, now() FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::bool[], ?::bool[], ?::int[], ?::timestamptz[])
       AS m(mint, contribution_version, label_version, rug_label_version, graduated, rugged, buyers, horizon_at)
     ORDER BY m.mint
     ON CONFLICT (mint) DO UPDATE SET contribution_version = excluded.contribution_version, label_version = excluded.label_version,
       rug_label_version = excluded.rug_label_version, graduated = excluded.graduated, rugged = excluded.rugged,
       buyers = excluded.buyers, horizon_at = excluded.horizon_at, applied_at = excluded.applied_at`,
    [
      col((x) => x.r.create.mint),
      col(() => WALLET_CONTRIBUTION_VERSION),
      col((x) => x.r.outcome.labelVersion),
      col((x) => x.r.outcome.rugLabelVersion),
      col((x) => x.r.outcome.graduated),
      col((x) => x.r.outcome.rugged),
      col((x) => x.contributions.length),
      col((x) => x.r.horizonAt),
    ],
  );
  const cs = perMint.flatMap((x) => x.contributions);
  const r = await trx.raw(applySql(t), [
    cs.map((c) => c.mint),
    cs.map((c) => c.wallet),
    cs.map((c) => c.buys),
    cs.map((c) => c.solInvestedLamports),
    cs.map((c) => c.firstBuyAt),
    cs.map((c) => c.lastBuyAt),
    cs.map((c) => c.fastSnipe),
    cs.map((c) => c.early),
    cs.map((c) => c.graduated),
    cs.map((c) => c.rugged),
    cs.map((c) => c.ran),
    col((x) => x.r.create.mint),
  ]);
  const { changed, added, emptied } = r.rows[0] as { changed: number; added: number; emptied: string[] };
  let removed = 0;
  if (emptied.length) {
    const d = await trx.raw(`DELETE FROM ${t.records} WHERE wallet = ANY(?::text[]) AND total = 0`, [emptied]);
    removed = d.rowCount ?? 0;
  }
  if (added !== removed)
    await trx.raw(
      `INSERT INTO wallet_index_counts (name, wallets) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET wallets = wallet_index_counts.wallets + excluded.wallets`,
      [t.name, added - removed],
    );
  return { mints: perMint.length, buyers: cs.length, walletsChanged: changed, walletsAdded: added, walletsRemoved: removed };
}
