import type { MintDecimalsReader } from '../../clients/solana/mint-decimals-client';
import type { TokenPrice } from '../../domain/billing/pay-with';
import { tokenPriceRaw } from '../../domain/billing/token-pricing';
import { HttpError, unavailable } from '../http/http-error';

/** Paying with the holder token, as configured: null while it is not offered (no HOLDER_TOKEN_MINT, or no rate). */
export type TokenPaymentSettings = { mint: string; tokensPerSol: string; mintDecimals: MintDecimalsReader };

/**
 * A plan's price in the holder token, fixed on the intent when it is made, so a rate change later never moves what
 * an open intent asks for. 422 on `pay_with` where the token is not offered; 503 while the mint cannot be read.
 */
export async function tokenPriceOf(s: TokenPaymentSettings | null, priceLamports: bigint): Promise<TokenPrice> {
  if (!s) {
    throw new HttpError(422, {
      detail: [{ loc: ['body', 'pay_with'], msg: 'paying with the holder token is not offered on this deployment; pay with sol', type: 'value_error' }],
    });
  }
  let decimals: number;
  try {
    decimals = await s.mintDecimals.decimals();
  } catch {
    throw unavailable('the holder token mint could not be read from the Solana node; try again shortly', 30);
  }
  return { mint: s.mint, decimals, amountRaw: tokenPriceRaw(priceLamports, s.tokensPerSol, decimals) };
}
