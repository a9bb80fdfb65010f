import type { CpuProfile, FrameTime } from './cpu-profile-summary';

type Frame = CpuProfile['nodes'][number]['callFrame'];

/**
 * The request path's concerns, each recognised by a frame on the stack. Express middlewares call the next one
 * from inside themselves, so a stack holds every middleware that ran before the current one: only the frames
 * above the nearest middleware dispatch (the `router` package's next/handle) say which middleware is running.
 * First match wins, so the order matters (the access log's socket write is the log's, not the response's).
 */
const CONCERNS: [string, (f: Frame) => boolean][] = [
  ['validator: route lookup (lookupRoute)', (f) => f.functionName === 'lookupRoute'],
  ['access log (pino-http, pino, redaction, write)', (f) => /\/(pino-http|pino|sonic-boom|@pinojs|pino-std-serializers)\/|api\/http\/access-log/.test(f.url)],
  ['metrics (prom-client)', (f) => f.url.includes('/prom-client/')],
  ['error answers (HttpError, error handler)', (f) => f.functionName === 'HttpError' || /api\/http\/(error-handler|validation-detail)/.test(f.url)],
  ['validator: request check', (f) => /openapi\.request\.validator|req\.parameter\.mutator|\/ajv\//.test(f.url)],
  ['validator: other', (f) => f.url.includes('express-openapi-validator')],
  ['SQL (knex, pg)', (f) => /\/(knex|pg|pg-protocol|pg-pool)\//.test(f.url)],
  ['gzip', (f) => f.url === 'node:zlib'],
  ['res.json (serialise, send)', (f) => f.functionName === 'json' && f.url.includes('express/lib/response')],
  ['keys, tiers, quotas (api/access)', (f) => f.url.includes('/api/access/')],
  ['body parser', (f) => f.functionName === 'jsonParser' || f.url.includes('/body-parser/')],
  ['socket writes', (f) => ['writev', 'writeBuffer', 'writeString', 'writeUtf8String', 'writeLatin1String'].includes(f.functionName)],
  ['express routing', (f) => f.url.includes('/node_modules/router/')],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['node http / net', (f) => /^node:(_http|net|internal\/stream)/.test(f.url)],
];
const isDispatch = (f: Frame) =>
  f.url.includes('/node_modules/router/') && ['next', 'handle', 'handleRequest', 'handleError', 'trimPrefix', 'processParams', ''].includes(f.functionName);

/** Busy time by concern (whatever matches none is `other`), as shares of the profile's busy time. */
export function timeByConcern(p: CpuProfile): FrameTime[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const avgUs = p.samples.length ? (p.endTime - p.startTime) / p.samples.length : 0;
  const totals = new Map<string, number>();
  let busy = 0;
  p.samples.forEach((id, i) => {
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === '(idle)' || leaf.functionName === '(root)') return;
    const ms = Math.max(0, p.timeDeltas[i + 1] ?? avgUs) / 1000;
    busy += ms;
    const stack: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
    const cut = stack.findIndex(isDispatch);
    const running = cut < 0 ? stack : stack.slice(0, cut);
    const name = cut === 0 ? 'express routing' : (CONCERNS.find(([, match]) => running.some(match))?.[0] ?? 'other');
    totals.set(name, (totals.get(name) ?? 0) + ms);
  });
  return [...totals].sort((a, b) => b[1] - a[1]).map(([frame, ms]) => ({ frame, ms: Math.round(ms), pct: busy > 0 ? Math.round((ms / busy) * 1000) / 10 : 0 }));
}
