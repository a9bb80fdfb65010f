import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiKeyRecord } from '../../db/access/api-key-store';
import type { UsageStore } from '../../db/access/usage-store';
import { betaWindowOpen } from '../../domain/access/beta-window';
import { answersOverQuota, liveDelayFor, minTierFor } from '../../domain/access/operation-tiers';
import { quotaResetAt, utcDay } from '../../domain/access/quota-day';
import { dailyQuota, effectiveTier, tierAtLeast, type HolderThresholds, type Tier } from '../../domain/access/tiers';
import { ambiguousKey, insufficientTier, invalidKey, keyNotActive, missingKey, quotaExceeded } from './access-errors';
import type { KeyCache } from './key-cache';
import type { Counted, QuotaLeases } from './quota-leases';
import { keyOptional, type KeyedOperation } from '../http/keyed-reads';
import { readPresentedKey } from './presented-key';
import { rateLimitHeaders, type QuotaState } from './rate-limit-headers';

export type AccessSettings = {
  /** Off only for benchmarks: keyed operations are then served as if the beta window were open. */
  authEnabled: boolean;
  keyRequiredAfter: Date;
  keyCacheTtlMs: number;
  holderThresholds: HolderThresholds;
};

/** Who is calling, for the handlers: a key (with its tier and today's quota) or nobody (beta window, auth off, or an operation whose key is optional). */
export type CallerAccess =
  | { kind: 'key'; key: ApiKeyRecord; tier: Tier; quota: QuotaState; liveDelayS: number; betaWindowOpen: boolean }
  | { kind: 'open'; reason: 'beta_window' | 'auth_off' | 'key_optional'; liveDelayS: 0 };

type OpenApiReq = Request & { openapi?: { schema?: { operationId?: string; security?: unknown[]; 'x-capability'?: string } } };

export type AccessDeps = { keys: KeyCache; usage: UsageStore; counter: QuotaLeases; settings: AccessSettings; now: () => Date };

/** The caller's access as the check resolved it (`res.locals.access`, or what a keyed read is handed). */
export const accessOf = (access: unknown): CallerAccess | undefined => access as CallerAccess | undefined;
export const callerAccess = (res: Response): CallerAccess | undefined => accessOf(res.locals.access);

/** What the check lets through: the caller's access, and for a key the rate-limit headers and the call it counted. */
export type Admission = { access: CallerAccess; headers?: Record<string, string>; counted?: { keyId: number; day: string } };

/**
 * The access check of every keyed operation, shared by the app's guard below and the keyed reads answered before
 * Express (api/http/keyed-reads.ts). Order of checks: key (401: missing, malformed, two different keys, unknown or
 * revoked, or minted with an intent not paid yet) → tier (403) → quota (429; `/api/me` answers anyway). A call
 * that passes is counted before its handler runs, so concurrent calls never overrun the quota; if the service then
 * answers it with its own 5xx, the call is given back (`applyTo`). Refused calls and operations that are not built
 * yet (501) are not counted. Inside the beta window a call without a key is served openly, and a keyed call is
 * counted but never refused for tier or quota. Throws the documented errors (or rejects with them, when it had to
 * wait). `admit` touches no response, so the keyed reads can write its rate-limit headers with their answer in one
 * go; `applyTo` sets them on a response the app writes, with the refund of a counted call that ends in a 5xx.
 */
export function createAccessCheck(d: AccessDeps) {
  const today = createQuotaDays();
  /**
   * Synchronous while everything it needs is in memory: a remembered key (key-cache.ts) and calls left in its leased
   * block (quota-leases.ts). Only a cache miss, a lease refill or a capability's usage read returns a promise, so
   * the common keyed call is admitted without a promise or a turn of the event loop. Refusals are thrown either way.
   */
  const admit = (op: KeyedOperation, req: IncomingMessage): Admission | Promise<Admission> => {
    if (!d.settings.authEnabled) return { access: { kind: 'open', reason: 'auth_off', liveDelayS: 0 } };
    const now = d.now();
    const beta = betaWindowOpen(now, d.settings.keyRequiredAfter);
    const presented = readPresentedKey(req.rawHeaders);
    if (presented.kind === 'none') {
      if (op.keyOptional) return { access: { kind: 'open', reason: 'key_optional', liveDelayS: 0 } };
      // /api/me describes the calling key: without one there is nothing to describe, beta or not.
      if (!beta || op.operationId === 'getMe') throw missingKey();
      return { access: { kind: 'open', reason: 'beta_window', liveDelayS: 0 } };
    }
    if (presented.kind === 'bad') throw invalidKey(presented.why);
    if (presented.kind === 'ambiguous') throw ambiguousKey();
    // The lookup itself is the cache's (key-cache.ts): by digest, constant-time in the store.
    const hit = d.keys.peek(presented.key);
    return hit ? admitKey(op, hit.key, now, beta) : d.keys.get(presented.key).then((key) => admitKey(op, key, now, beta));
  };
  const admitKey = (op: KeyedOperation, key: ApiKeyRecord | undefined, now: Date, beta: boolean): Admission | Promise<Admission> => {
    if (!key) throw invalidKey('the API key is not valid (unknown, revoked or mistyped)');
    if (key.awaitingPaymentOf) throw keyNotActive(key.awaitingPaymentOf);

    const tier = effectiveTier(key, now, d.settings.holderThresholds);
    const required = minTierFor(op.operationId);
    if (!beta && !tierAtLeast(tier, required)) throw insufficientTier(op.operationId ?? op.path, required, tier);

    const limit = dailyQuota(tier, key.customDailyQuota);
    const { day, resetAt } = today(now);
    const k: Keyed = { op, key, tier, limit, day, resetAt, now, beta };
    // Answered 501 right after this: report the count without spending a call on it.
    if (op.capability) return d.usage.usedOn(key.id, day).then((used) => admitted(k, used, undefined));
    // No closure per call (the common call is admitted synchronously, thousands of times a second).
    const c = d.counter.countNow(key.id, day, limit);
    return c ? counted(k, c) : d.counter.count(key.id, day, limit).then((later) => counted(k, later));
  };
  const applyTo = (res: ServerResponse, a: Admission): void => {
    if (a.headers) for (const name in a.headers) res.setHeader(name, a.headers[name]!);
    const c = a.counted;
    // The service's own failure is not the caller's call to pay for.
    if (c) res.once('finish', () => res.statusCode >= 500 && d.counter.refund(c.keyId, c.day));
  };
  return { admit, applyTo };
}

/** A key that passed the key and tier checks, with what its quota check needs. */
type Keyed = { op: KeyedOperation; key: ApiKeyRecord; tier: Tier; limit: number; day: string; resetAt: Date; now: Date; beta: boolean };

/** A counted call admitted; one refused by the quota is the documented 429 (outside the beta window, `/api/me` aside). */
function counted(k: Keyed, c: Counted): Admission {
  if (!c.counted && !k.beta && !answersOverQuota(k.op.operationId)) throw quotaExceeded(k.tier, { limit: k.limit, used: c.used, resetAt: k.resetAt }, k.now);
  return admitted(k, c.used, c.counted ? { keyId: k.key.id, day: k.day } : undefined);
}

function admitted(k: Keyed, used: number, counted: Admission['counted']): Admission {
  const quota: QuotaState = { limit: k.limit, used, resetAt: k.resetAt };
  const access: CallerAccess = { kind: 'key', key: k.key, tier: k.tier, quota, liveDelayS: k.beta ? 0 : liveDelayFor(k.tier), betaWindowOpen: k.beta };
  return { access, headers: rateLimitHeaders(quota), counted };
}

/** The quota day of a moment and its reset, worked out once per UTC day rather than once per call. */
function createQuotaDays(): (now: Date) => { day: string; resetAt: Date } {
  let current = { day: '', resetAt: new Date(0), from: 0 };
  return (now) => {
    const t = now.getTime();
    if (t < current.from || t >= current.resetAt.getTime()) {
      const resetAt = quotaResetAt(now);
      current = { day: utcDay(now), resetAt, from: resetAt.getTime() - 86_400_000 };
    }
    return current;
  };
}

/** Runs after request validation on every operation that declares a security requirement in openapi.yaml (all of `/api/v1` and `/api/me`). */
export function keyAuth(check: ReturnType<typeof createAccessCheck>): RequestHandler {
  return async (req, res, next) => {
    const schema = (req as OpenApiReq).openapi?.schema;
    if (!schema?.security?.length) return next();
    const op = { operationId: schema.operationId, path: req.path, capability: Boolean(schema['x-capability']), keyOptional: keyOptional(schema.security) };
    const a = await check.admit(op, req);
    check.applyTo(res, a);
    res.locals.access = a.access;
    next();
  };
}
