import { startHyperliquidWireServer, type InfoAnswer, type WsTradeFrame } from '../../ingest/perps-simulator/hyperliquid-wire-server';
import { canonicalRequest, loadHyperliquidCassettes, recordedAnswer, type RecordedExchange } from './hyperliquid-cassettes';

/**
 * A local Hyperliquid over real sockets answering `POST /info` from the recorded cassettes (by the request's
 * canonical JSON), with the failures a client must survive: 429s, a changed shape, an unrecorded request.
 *
 * Two answers are derived, each from recorded data, because the cassettes lack them:
 * - `metaAndAssetCtxs` (the observatory's main read) is built in the documented format — `[meta, assetCtxs]`,
 *   one context per universe entry with decimal strings — from the recorded `meta` universe and the recorded
 *   `allMids` prices; funding, open interest and volume are placeholders of the right type.
 * - `userFillsByTime` is the recorded `userFills` answer of that user filtered to [startTime, endTime].
 * Websocket `trades` frames are built from the recorded fills (coin, side, px, sz, hash, time); `users` pairs
 * the recorded wallet with a counterparty, as the docs' `[buyer, seller]`.
 */
export type HyperliquidFake = Awaited<ReturnType<typeof startHyperliquidServer>>;
export type InfoRequestLog = { at: number; type: string; body: Record<string, unknown>; status: number };

export async function startHyperliquidServer() {
  const exchanges = loadHyperliquidCassettes();
  const byRequest = new Map<string, RecordedExchange>();
  for (const e of exchanges) if (!byRequest.has(canonicalRequest(e.request))) byRequest.set(canonicalRequest(e.request), e);

  const fills = recordedAnswer(exchanges, 'userFills');
  const fillsUser = String(fills.request.user);
  const fillRows = fills.json as { coin: string; side: 'A' | 'B'; px: string; sz: string; hash: string; time: number; oid: number }[];
  const mids = recordedAnswer(exchanges, 'allMids').json as Record<string, string>;
  const meta = recordedAnswer(exchanges, 'meta').json as { universe: { name: string }[] };

  const log: InfoRequestLog[] = [];
  let rateLimited = 0;
  let retryAfterS: number | null = null;
  const reshaped = new Map<string, (json: unknown) => unknown>();

  function derived(body: Record<string, unknown>): unknown {
    if (body.type === 'metaAndAssetCtxs') return metaAndAssetCtxs(meta, mids);
    if (body.type === 'userFillsByTime' && String(body.user).toLowerCase() === fillsUser) {
      const start = Number(body.startTime);
      const end = body.endTime === undefined ? Infinity : Number(body.endTime);
      return fillRows.filter((f) => f.time >= start && f.time <= end);
    }
    return undefined;
  }

  function answer(body: Record<string, unknown>): InfoAnswer {
    const type = String(body.type);
    const status = (a: InfoAnswer) => (log.push({ at: Date.now(), type, body, status: a.status }), a);
    if (rateLimited > 0) {
      rateLimited--;
      return status({ status: 429, body: 'null', headers: retryAfterS === null ? {} : { 'retry-after': String(retryAfterS) } });
    }
    const recorded = byRequest.get(canonicalRequest(body));
    let json = recorded ? (JSON.parse(recorded.body) as unknown) : derived(body);
    if (json === undefined) return status({ status: 404, body: JSON.stringify({ error: `no recording for ${canonicalRequest(body)}` }) });
    const reshape = reshaped.get(type);
    if (reshape) json = reshape(json);
    return status({ status: recorded?.status ?? 200, body: JSON.stringify(json) });
  }

  const wire = await startHyperliquidWireServer({ answer });

  return {
    ...wire,
    exchanges,
    recordedMids: mids,
    fillsUser,
    fillRows,
    /** Every `/info` request the server answered, with its arrival time. */
    requests: () => log,
    /** The next `n` requests answer 429 (with `Retry-After: s` when given). */
    rateLimitNext(n: number, s: number | null = null): void {
      rateLimited = n;
      retryAfterS = s;
    },
    /** Answers of `type` pass through `fn` from now on (a changed shape); `null` restores them. */
    reshape(type: string, fn: ((json: unknown) => unknown) | null): void {
      if (fn) reshaped.set(type, fn);
      else reshaped.delete(type);
    },
    /** `trades` frames built from the recorded fills, oldest first. */
    recordedTradeFrames(): WsTradeFrame[] {
      return [...fillRows]
        .sort((a, b) => a.time - b.time)
        .map((f, i) => ({
          coin: f.coin,
          side: f.side,
          px: f.px,
          sz: f.sz,
          hash: f.hash,
          time: f.time,
          tid: f.oid * 1000 + i,
          users: f.side === 'B' ? [fillsUser, COUNTERPARTY] : [COUNTERPARTY, fillsUser],
        }));
    },
  };
}

const COUNTERPARTY = '0x0000000000000000000000000000000000000001';

function metaAndAssetCtxs(meta: { universe: { name: string }[] }, mids: Record<string, string>): unknown {
  const ctxs = meta.universe.map(({ name }) => {
    const px = mids[name] ?? '1.0';
    return {
      funding: '0.0000125',
      openInterest: '1000.0',
      prevDayPx: px,
      dayNtlVlm: '1000000.0',
      premium: '0.0',
      oraclePx: px,
      markPx: px,
      midPx: px,
      impactPxs: [px, px],
    };
  });
  return [meta, ctxs];
}
