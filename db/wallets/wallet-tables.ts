/**
 * The wallet index's tables come in two sets: `live`, which resolutions update and the API reads, and `next`, which a
 * rebuild fills from the trades table beside it and then swaps in (wallet-rebuild-store.ts). Names are fixed here,
 * never taken from input, so they can be written into SQL.
 */
export type WalletTableSet = {
  name: 'live' | 'next';
  records: string;
  contributions: string;
  mints: string;
};

export const LIVE_TABLES: WalletTableSet = {
  name: 'live',
  records: 'wallet_records',
  contributions: 'wallet_mint_contributions',
  mints: 'wallet_index_mints',
};

export const NEXT_TABLES: WalletTableSet = {
  name: 'next',
  records: 'wallet_records_next',
  contributions: 'wallet_mint_contributions_next',
  mints: 'wallet_index_mints_next',
};

/** The live table each `next` table replaces at the swap. */
export const TABLE_PAIRS = [
  [NEXT_TABLES.records, LIVE_TABLES.records],
  [NEXT_TABLES.contributions, LIVE_TABLES.contributions],
  [NEXT_TABLES.mints, LIVE_TABLES.mints],
] as const;
