import { createApiClient, type ApiClient } from '../../clients/api/api-client';

const KEY_ITEM = 'launchpad-api-key';

/** The key a visitor entered for keyed panels: kept in this tab only (sessionStorage), sent to this API only. */
export function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(KEY_ITEM) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(KEY_ITEM, key);
    else sessionStorage.removeItem(KEY_ITEM);
  } catch {
    // storage refused (private mode): the key lasts as long as the page
  }
  memoryKey = key ?? undefined;
}

let memoryKey: string | undefined;

export const api: ApiClient = createApiClient({ baseUrl: location.origin, key: () => memoryKey ?? storedKey() });

/** What a failed answer means for a visitor, from the API's documented error bodies. */
export function failureText(status: number, body: unknown): string {
  const b = (body && typeof body === 'object' ? body : {}) as { error?: string; message?: string; capability?: string };
  if (status === 501) return `Not live yet on this deployment: the ${b.capability ?? 'needed'} capability is still being built.`;
  if (status === 503) return `Not available right now: ${b.message ?? 'a dependency is down or the data is not built yet'}.`;
  if (status === 401) return b.error === 'missing_key' ? 'This needs an API key.' : `The key was refused (${b.error ?? 'unauthorized'}).`;
  if (status === 403) return `This key’s tier does not include it (${b.message ?? 'insufficient tier'}).`;
  if (status === 429) return 'This key’s daily quota is used up.';
  if (status === 404) return b.message ?? 'Not found.';
  return `The API answered ${status}${b.message ? `: ${b.message}` : ''}.`;
}

/** True when `fetch` failed without any answer (the API is down or unreachable). */
export const unreachable = (e: unknown): boolean => e instanceof TypeError;
