import { walletAddressProblem, WALLET_ADDRESS_PROBLEM_MESSAGE } from '../../domain/access/wallet-address';
import { HttpError } from '../http/http-error';

/**
 * A body field that is well-formed but wrong (a signature that does not verify, a prefix that is not the
 * caller's): the spec's 422 body, like a validation failure, pointing at the field.
 */
export const bodyError = (loc: (string | number)[], msg: string, type: string, input?: unknown): HttpError =>
  new HttpError(422, { detail: [input === undefined ? { loc, msg, type } : { loc, msg, type, input }] });

/** The 422 for a `wallet` field that is not a wallet address (domain/access/wallet-address.ts), or undefined. */
export function walletAddressError(loc: (string | number)[], wallet: string): HttpError | undefined {
  const problem = walletAddressProblem(wallet);
  return problem ? bodyError(loc, `the wallet ${WALLET_ADDRESS_PROBLEM_MESSAGE[problem]}`, 'value_error', wallet) : undefined;
}
