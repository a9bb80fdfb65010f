/** What a treasury payment is, as the chain reports it (read by the Solana client, recorded by the treasury store). */
export type TreasuryTransaction = {
  signature: string;
  slot: number;
  blockTime: Date | null;
  /** A failed transaction moved no lamports; it is recorded so it is not fetched again, and never counts. */
  failed: boolean;
  memos: string[];
  /** Lamports moved to the treasury by System Program transfers, top level and inner (CPI) alike. */
  lamportsToTreasury: bigint;
  /** Raw units of the holder mint that reached token accounts the treasury owns; null when no mint was asked for. */
  tokensToTreasury: { mint: string; raw: bigint } | null;
  /** The fee payer (first signer): whom an operator would refund. */
  payer: string | null;
};
