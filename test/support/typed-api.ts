import type { Middleware } from 'openapi-fetch';
import { createApiClient, type ApiClient, type Schemas } from '../../clients/api/api-client';
import { expectConforms } from './contract';

/**
 * Every answer the typed client receives is checked against openapi.yaml by the independent validator
 * (contract.ts): the status must be documented for the operation and the body valid against its schema. A break
 * fails the call, so a test cannot assert on an answer the contract does not allow.
 */
const conformance: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    if (request.method === 'HEAD' || response.status === 204 || response.status === 304) return undefined;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await response.clone().text();
    const body = type === 'application/json' ? (JSON.parse(text) as unknown) : text;
    expectConforms(request.method, schemaPath, response.status, body, type);
    return undefined;
  },
};

/** The key as `Authorization: Bearer …`, the other way the spec lets a client send it. */
const sendBearer = (key: () => string | undefined): Middleware => ({
  onRequest({ request }) {
    const k = key();
    if (k) request.headers.set('Authorization', `Bearer ${k}`);
    return request;
  },
});

/**
 * The API under test through the typed client the dashboard uses (clients/api): paths, parameters and bodies are
 * checked by tsc against the types generated from openapi.yaml, and each answer against openapi.yaml at run time.
 * `baseUrl` may be a function, for files whose API starts in a `beforeAll` (`typedApi(() => api.url)`).
 *
 *   const r = await http.GET('/api/v1/runners', { params: { query: { tier: '2x', limit: 100 } } });
 *   expect(r.response.status).toBe(200);
 *   r.data!.mints[0]!.runner_prob; // typed
 */
export function typedApi(baseUrl: string | (() => string), o: { key?: () => string | undefined; bearer?: () => string | undefined } = {}): ApiClient {
  let client: ApiClient | undefined;
  let clientUrl: string | undefined;
  const current = (): ApiClient => {
    const url = typeof baseUrl === 'string' ? baseUrl : baseUrl();
    if (!client || url !== clientUrl) {
      client = createApiClient({ baseUrl: url, key: o.key });
      if (o.bearer) client.use(sendBearer(o.bearer));
      client.use(conformance);
      clientUrl = url;
    }
    return client;
  };
  return new Proxy({} as ApiClient, {
    get(_target, name) {
      const c = current() as unknown as Record<string | symbol, unknown>;
      const v = c[name];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(c) : v;
    },
  });
}

/**
 * `typedApi` sending a test key (test/support/access-keys.ts `issueTestKey`) as `X-API-Key`. The key is read at each
 * call, so it may be issued in a `beforeAll` after this is built: `keyedApi(() => api.url, () => pro)`.
 */
export const keyedApi = (baseUrl: string | (() => string), key: () => { plaintext: string } | undefined): ApiClient =>
  typedApi(baseUrl, { key: () => key()?.plaintext });

/**
 * A typed call's `error` as the 422 body, for a test that has just asserted the status was 422 (the conformance
 * check has then validated it against that schema); `error` is typed as the union of every documented error body.
 */
export const validationError = (error: unknown): Schemas['ValidationError'] => error as Schemas['ValidationError'];

/** The 422 body's `loc` paths joined with dots (`query.limit`). */
export const errorLocs = (error: unknown): string[] => validationError(error).detail.map((d) => d.loc.join('.'));
