import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './openapi-types';

/**
 * This service's own API as a typed client: paths, parameters and bodies are checked against the types
 * `npm run gen:client` generates from openapi.yaml (openapi-typescript), and calls go through openapi-fetch
 * (a thin wrapper over fetch). The dashboard and the end-to-end tests use it; it runs in a browser and in Node.
 * It imports nothing from the server, so it is bundled for the browser as it stands.
 */
export type ApiClient = Client<paths>;
export type ApiPaths = paths;
export type Schemas = components['schemas'];

export type ApiClientOptions = {
  baseUrl: string;
  /** The API key sent as `X-API-Key`, read at each call (the dashboard's key can change while it runs). */
  key?: () => string | undefined;
  fetch?: (input: Request) => Promise<Response>;
};

export function createApiClient(o: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: o.baseUrl, ...(o.fetch ? { fetch: o.fetch } : {}) });
  if (o.key) client.use(sendKey(o.key));
  return client;
}

function sendKey(key: () => string | undefined): Middleware {
  return {
    onRequest({ request }) {
      const k = key();
      if (k) request.headers.set('X-API-Key', k);
      return request;
    },
  };
}
