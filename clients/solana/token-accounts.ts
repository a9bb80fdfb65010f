import { PublicKey } from '@solana/web3.js';

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/** The associated token account of `owner` for `mint` under `tokenProgram` (seeds: owner, token program, mint). */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram: string): string {
  const [address] = PublicKey.findProgramAddressSync(
    [new PublicKey(owner).toBuffer(), new PublicKey(tokenProgram).toBuffer(), new PublicKey(mint).toBuffer()],
    new PublicKey(ASSOCIATED_TOKEN_PROGRAM_ID),
  );
  return address.toBase58();
}

/**
 * Where token payments to the treasury land. A Solana Pay request with `spl-token` makes the wallet send to the
 * recipient's associated token account for the mint, derived under the mint's own token program; pump tokens may be
 * SPL Token or Token-2022. Both candidates are derived rather than one read from the mint account: the one under the
 * other program never exists and lists nothing, which costs one empty listing per scan, and the scan needs no read
 * that could fail before it (a SOL payment never waits on the token side). Not configurable on purpose: payers'
 * wallets pay the associated account, so any other account would never see a Solana Pay payment.
 */
export function treasuryTokenAccounts(treasury: string, mint: string): string[] {
  return [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID].map((program) => associatedTokenAddress(treasury, mint, program));
}
