import type { KeyedRead } from './keyed-reads';
import { preparedReadAnswers } from './prepared-body';
import type { PreparedRead } from './prepared-read';

/**
 * A keyed read whose answer is the same for every caller (nothing in its body is the key's): the prepared read's
 * body with `cacheControl`. While the body is fresh in memory the answer is returned as it is, so the keyed read
 * is written in the very turn its request arrived; only a rebuild (at most once per the read's TTL) is waited for.
 */
export function preparedKeyedRead(read: PreparedRead, cacheControl: string): KeyedRead {
  const answer = preparedReadAnswers(cacheControl);
  return () => {
    const body = read.peek();
    return body ? answer(body) : read.get().then(answer);
  };
}
