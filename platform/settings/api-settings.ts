import os from 'node:os';
import { z } from 'zod';
import { platformSettings } from './platform-settings';
import { trustedProxies } from '../../domain/http/client-address';
import { bool, csv, defineSettings, port } from './settings';

/** The API process: where it listens, response validation, its operator metrics port, request deadlines. */
export const apiSettings = defineSettings(
  {
    NODE_ENV: platformSettings.env.NODE_ENV,
    /** Address the API listens on. */
    API_HOST: z.string().default('127.0.0.1'),
    /** Port the API listens on. */
    API_PORT: port().default(8000),
    /** API processes sharing API_PORT (node cluster); unset: the machine's cores in production, 1 otherwise. */
    API_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
    /**
     * `npm start` runs a second API on API_PORT as a hot standby: loaded and connected, it takes the port over within
     * ~50 ms of the serving one's death (SIGKILL of its primary, of every process, of its group) instead of a cold start.
     */
    API_STANDBY: bool.default(true),
    /** Response validation against openapi.yaml: on in tests and development, off in production for speed. */
    VALIDATE_RESPONSES: bool.optional(),
    /** Access log at info: requests slower than ACCESS_LOG_SLOW_MS and a fraction ACCESS_LOG_SAMPLE of the rest (all at debug; 5xx always). */
    ACCESS_LOG_SLOW_MS: z.coerce.number().min(0).default(500),
    /** Access log at `info`: requests slower than this (ms) and this fraction (0–1) of the rest; 5xx other than 503 always (a 503's cause is logged once per interval by the error handler). */
    ACCESS_LOG_SAMPLE: z.coerce.number().min(0).max(1).default(0.01),
    /** How long the slowly changing public reads (scope, health, accuracy, …) are served from memory before they are read again. */
    API_READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /** Where this deployment is reachable from outside (links in payment pages and emails); unset: the API's own host and port. */
    PUBLIC_BASE_URL: z.string().url().optional(),
    /**
     * Reverse proxies whose forwarded-address header names the client (addresses or CIDR blocks, comma-separated).
     * Empty: no one is trusted and every per-client limit keys on the socket's peer address, whatever a header says.
     */
    API_TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform(csv)
      .refine((l) => {
        try {
          trustedProxies(l);
          return true;
        } catch {
          return false;
        }
      }, 'comma-separated IP addresses or CIDR blocks'),
    /** The header those proxies write the client's address into (read only from them). */
    API_FORWARDED_HEADER: z.enum(['x-forwarded-for', 'forwarded']).default('x-forwarded-for'),
    /** Prometheus `/metrics` of the API, on an operator port of its own (never the public one). */
    API_METRICS_HOST: z.string().default('127.0.0.1'),
    /** API `/metrics`, on an operator port of its own (`0.0.0.0` for a scraper in another container; never publish it). */
    API_METRICS_PORT: port().default(9465),
    /** How long a request waits for a database connection, and for one statement, before it answers 503. */
    API_DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
    /** How long an API request waits for a database connection / one statement before it answers 503. */
    API_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    /** Deadline of one call to Temporal from a request (a workflow start, a health probe) before it answers 503. */
    API_TEMPORAL_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1500),
  },
  (e) => ({
    api: {
      host: e.API_HOST,
      port: e.API_PORT,
      standby: e.API_STANDBY,
      processes: e.API_PROCESSES ?? (e.NODE_ENV === 'production' ? os.availableParallelism() : 1),
      validateResponses: e.VALIDATE_RESPONSES ?? e.NODE_ENV !== 'production',
      accessLog: { slowMs: e.ACCESS_LOG_SLOW_MS, sample: e.ACCESS_LOG_SAMPLE },
      readCacheTtlMs: e.API_READ_CACHE_TTL_MS,
      publicBaseUrl: e.PUBLIC_BASE_URL,
      proxies: { trusted: e.API_TRUSTED_PROXIES, header: e.API_FORWARDED_HEADER },
      metrics: { host: e.API_METRICS_HOST, port: e.API_METRICS_PORT },
      db: { acquireTimeoutMs: e.API_DB_ACQUIRE_TIMEOUT_MS, statementTimeoutMs: e.API_DB_STATEMENT_TIMEOUT_MS },
      temporalCallTimeoutMs: e.API_TEMPORAL_CALL_TIMEOUT_MS,
    },
  }),
);
