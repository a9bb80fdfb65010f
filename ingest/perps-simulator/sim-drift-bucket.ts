import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DRIFT_DATA_ENDS } from '../../domain/perps/drift-trade';
import { SeededRandom } from '../simulator/seeded-random';
import { driftTradeFile, pubkey } from './sim-drift-files';

/**
 * A simulated Drift historical bucket for the embedded default (exchange_a), served by the perps simulator's
 * process under `/drift/program/<program id>/`: every `market/<SYMBOL>/tradeRecords/<yyyy>/<yyyymmdd>` up to
 * Drift's last published day is a day file generated from the published schema, the same for a given (seed,
 * market, day) every time; later days answer 404 like the bucket. Traders are a standing population per market,
 * so their lifetime stats build up across days.
 */
export const SIM_DRIFT_PREFIX = '/drift/program/dRiftyHA39MWEi3m9aunc5MzRF1JYuBsbn6VPcn33UH/';
const KEY = /^market\/([A-Za-z0-9._-]{1,64})\/tradeRecords\/(\d{4})\/(\d{4})(\d{2})(\d{2})$/;
const START_PRICE: Record<string, number> = { 'SOL-PERP': 190, 'BTC-PERP': 95_000, 'ETH-PERP': 3_400 };

export function createSimDriftBucket(o: { seed: number; rowsPerDay?: number; traders?: number }) {
  const pools = new Map<string, string[]>();
  const pool = (market: string) => {
    let p = pools.get(market);
    if (!p) {
      const rng = SeededRandom.derive(o.seed, 'sim-drift-traders', market);
      p = Array.from({ length: o.traders ?? 300 }, () => pubkey(rng));
      pools.set(market, p);
    }
    return p;
  };
  const cache = new Map<string, Buffer>();

  /** The object at `key`, or null (404). */
  function object(key: string): Buffer | null {
    const m = KEY.exec(key);
    if (!m || m[2] !== m[3]) return null;
    const [, market, year, , month, day] = m;
    const date = `${year}-${month}-${day}`;
    if (date > DRIFT_DATA_ENDS || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) return null;
    const hit = cache.get(key);
    if (hit) return hit;
    const dayIndex = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
    const { csv } = driftTradeFile({
      date,
      rows: o.rowsPerDay ?? 2000,
      seed: o.seed,
      traders: pool(market!),
      startPrice: START_PRICE[market!] ?? 10,
      // fillRecordId runs on per market, day after day, as Drift's does.
      firstFillRecordId: dayIndex * 1_000_000,
    });
    const body = Buffer.from(csv, 'utf8');
    if (cache.size > 64) cache.clear();
    cache.set(key, body);
    return body;
  }

  return {
    object,
    /** Answers a GET under SIM_DRIFT_PREFIX; false for any other request. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
      if (req.method !== 'GET' || !path.startsWith(SIM_DRIFT_PREFIX)) return false;
      const body = object(path.slice(SIM_DRIFT_PREFIX.length));
      if (!body) {
        res.writeHead(404, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code></Error>');
        return true;
      }
      res
        .writeHead(200, {
          'content-type': 'binary/octet-stream',
          'content-length': String(body.length),
          etag: `"${createHash('md5').update(body).digest('hex')}"`,
        })
        .end(body);
      return true;
    },
  };
}
