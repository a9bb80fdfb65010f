import { Router, type Request, type Response } from 'express';
import { HttpError } from '../http/http-error';
import { cut } from '../http/safe-input';
import { PAGE_HEADERS, pageShell, type PageName } from './page-shell';
import type { CachedBody, WebAssets } from './web-assets';

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const ALLOW = 'GET, HEAD, OPTIONS';
/** The dashboard's paths outside openapi.yaml (`/` is the spec's landing operation, served in `landingRoute`). */
const PAGE_PATHS = ['/accuracy', '/audit', '/mint/:mint', '/web/:asset'];

function sendPage(res: Response, page: PageName): void {
  res.set(PAGE_HEADERS).type('html').send(pageShell(page));
}

function sendCached(req: Request, res: Response, file: CachedBody): void {
  res.set({ ETag: file.etag, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type(file.type).vary('Accept-Encoding');
  if (req.headers['if-none-match'] === file.etag) return void res.status(304).end();
  if (req.acceptsEncodings('gzip', 'identity') === 'gzip') return void res.set('Content-Encoding', 'gzip').send(file.gzipped);
  res.send(file.body);
}

/**
 * The dashboard's other pages and its files, outside openapi.yaml like /docs: mounted before request validation,
 * they answer GET and HEAD, OPTIONS with `Allow`, and any other method 405. A mint page takes only a well-formed
 * address, and an unknown file falls through to the app's JSON 404.
 */
export function webPages(d: { assets: WebAssets }): Router {
  const r = Router();
  r.options(PAGE_PATHS, (_req, res) => void res.set('Allow', ALLOW).status(204).end());
  r.get('/accuracy', (_req, res) => sendPage(res, 'accuracy'));
  r.get('/audit', (_req, res) => sendPage(res, 'audit'));
  r.get('/mint/:mint', (req, res, next) => (BASE58_ADDRESS.test(req.params.mint) ? sendPage(res, 'mint') : next()));
  r.get('/web/:asset', async (req, res, next) => {
    const file = await d.assets.get(req.params.asset);
    if (!file) return next();
    sendCached(req, res, file);
  });
  // GET and HEAD reach here only when no page or file answered: on to the app's 404.
  r.all(PAGE_PATHS, (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    throw new HttpError(405, { error: 'method_not_allowed', message: `${req.method} is not allowed on ${cut(req.path, 200)}` }, { Allow: ALLOW });
  });
  return r;
}

/** `GET /`, the spec's landing page (getLandingPage): the live dashboard. */
export function landingRoute(): Router {
  const r = Router();
  r.get('/', (_req, res) => sendPage(res, 'live'));
  return r;
}
