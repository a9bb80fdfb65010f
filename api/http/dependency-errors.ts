/**
 * Errors that mean "a service this answer needs is down or too slow right now", not "this request is wrong" nor
 * "our code is wrong": a database that refuses, drops or times out connections, a workflow service that is
 * unreachable or misses its deadline. The error handler answers them 503 with Retry-After.
 */
export type Dependency = 'database' | 'workflow service' | 'upstream service';
/** `cause` is for the log (it may name hosts and ports); `reason` is safe to show anyone. */
export type DependencyFailure = { dependency: Dependency; cause: string; reason: string };

/** Node socket errors: the peer refused, reset, vanished or never answered. */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs that pass: connection exceptions (08…), server shutting down or starting (57P01-57P03), too many
 * connections (53300), out of memory (53200) or disk (53100), a statement timeout (57014), and a serialization
 * failure or deadlock (40001, 40P01).
 */
const PG_TRANSIENT = /^(08[0-9A-Z]{3}|57P0[1-3]|53[123]00|57014|40001|40P01)$/;
/** node-postgres' own messages for a connection that broke or never came up (knex prefixes the failed SQL and " - "). */
const PG_CONNECTION = /(^|\s-\s)(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed)/;
/** gRPC status codes: CANCELLED by our deadline's abort, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE. */
const GRPC_TRANSIENT = new Set([1, 4, 8, 14]);
const GRPC_NAMES: Record<number, string> = { 1: 'CANCELLED', 4: 'DEADLINE_EXCEEDED', 8: 'RESOURCE_EXHAUSTED', 14: 'UNAVAILABLE' };

type ErrorLike = {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  details?: unknown;
  metadata?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
};

const firstLine = (m: unknown) =>
  String(m ?? '')
    .split('\n', 1)[0]!
    .slice(0, 160);

function classifyOne(e: ErrorLike): DependencyFailure | undefined {
  if (e.name === 'KnexTimeoutError') return { dependency: 'database', cause: 'timed out waiting for a database connection', reason: 'connection timeout' };
  if (typeof e.code === 'string' && typeof e.severity === 'string' && PG_TRANSIENT.test(e.code)) {
    return { dependency: 'database', cause: `SQLSTATE ${e.code}: ${firstLine(e.message)}`, reason: `SQLSTATE ${e.code}` };
  }
  const pg = typeof e.message === 'string' ? PG_CONNECTION.exec(e.message) : null;
  if (pg) return { dependency: 'database', cause: firstLine(pg[2]), reason: 'connection lost' };
  if (typeof e.code === 'number' && GRPC_TRANSIENT.has(e.code) && ('details' in e || 'metadata' in e)) {
    return { dependency: 'workflow service', cause: `${GRPC_NAMES[e.code]}: ${firstLine(e.details ?? e.message)}`, reason: GRPC_NAMES[e.code]! };
  }
  if (typeof e.code === 'string' && NET_CODES.has(e.code)) {
    const peer = e.address !== undefined ? ` ${String(e.address)}${e.port !== undefined ? `:${String(e.port)}` : ''}` : '';
    return { dependency: 'upstream service', cause: `${e.code}${peer}`, reason: e.code };
  }
  return undefined;
}

/** The dependency failure behind `err` (looking through `cause` and AggregateError chains), if it is one. */
export function dependencyFailure(err: unknown): DependencyFailure | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 8) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const found = classifyOne(e as ErrorLike);
    if (found) return found;
    queue.push((e as ErrorLike).cause);
    if (Array.isArray((e as { errors?: unknown }).errors)) queue.push(...(e as { errors: unknown[] }).errors.slice(0, 4));
  }
  return undefined;
}
