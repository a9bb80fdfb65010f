import { HttpError } from '../http/http-error';

/**
 * A body field that is well-formed but wrong (a signature that does not verify, a prefix that is not the
 * caller's): the spec's 422 body, like a validation failure, pointing at the field.
 */
export const bodyError = (loc: (string | number)[], msg: string, type: string, input?: unknown): HttpError =>
  new HttpError(422, { detail: [input === undefined ? { loc, msg, type } : { loc, msg, type, input }] });
