import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SHARED_DATA } from '../support/test-env';

/**
 * Hyperliquid's recorded `POST /info` exchanges (VCR cassettes from its official Python SDK's tests) read from
 * ../shared/data at run time. A cassette is YAML: `interactions[]` of `{ request: { body, method, uri },
 * response: { status: { code }, body: { string } } }`; request bodies are Python's `json.dumps` (spaces after
 * separators), so they are matched by their parsed, key-sorted form, never by text.
 */
export const HYPERLIQUID_CAPTURES = path.join(SHARED_DATA, 'captures', 'hyperliquid');

export type RecordedExchange = { cassette: string; request: Record<string, unknown>; status: number; body: string };

type Cassette = {
  interactions: { request: { body: string; method: string; uri: string }; response: { status: { code: number }; body: { string: string } } }[];
};

export function canonicalRequest(body: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sort(x)]),
          )
        : v;
  return JSON.stringify(sort(body));
}

export function loadHyperliquidCassettes(dir = HYPERLIQUID_CAPTURES): RecordedExchange[] {
  const out: RecordedExchange[] = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const cassette = parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Cassette;
    for (const i of cassette.interactions) {
      if (i.request.method !== 'POST' || !i.request.uri.endsWith('/info')) continue;
      out.push({
        cassette: file,
        request: JSON.parse(i.request.body) as Record<string, unknown>,
        status: i.response.status.code,
        body: i.response.body.string,
      });
    }
  }
  return out;
}

/** The recorded answer to a request of this type (the first cassette holding one), parsed. */
export function recordedAnswer(exchanges: RecordedExchange[], type: string): { request: Record<string, unknown>; json: unknown } {
  const e = exchanges.find((x) => x.request.type === type);
  if (!e) throw new Error(`no recorded ${type} exchange`);
  return { request: e.request, json: JSON.parse(e.body) };
}
