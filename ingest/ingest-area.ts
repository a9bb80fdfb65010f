import type { Client } from '@temporalio/client';
import type { LaunchEventStore } from '../db/mint/launch-event-store';
import type { Config } from '../platform/config';
import type { Db } from '../db/db-handle';
import type { Logger } from '../platform/logger';
import type { MintLifecycleStarter } from '../workflows/mint/mint-lifecycle-starter';
import type { LaunchFeed } from './launch-feed';

/** The shared pieces of the ingest daemon; each area builds its own stores, starters and loops from them. */
export type IngestContext = { cfg: Config; db: Db; log: Logger; temporal: Client; now: () => Date };

/** What an area adds to the ingest daemon, each part run with every other area's same part (ingest/main-ingest.ts). */
export type IngestAreaParts = {
  /** Where the feeds' facts are committed and how each new mint's workflow is started (exactly one area says). */
  facts?: { store: LaunchEventStore; starter: MintLifecycleStarter };
  /** Once, after the outbox is swept and before the feeds start: what the first minutes need seeded. */
  prepare?(): Promise<void>;
  /** After each batch that committed trades; must not wait. */
  onTradesDurable?(): void;
  /** At every progress tick (30 s), with the running feeds. */
  onProgress?(feeds: readonly LaunchFeed[]): void;
  /** Runs for as long as the daemon does; returns its stop. */
  start?(): () => Promise<void> | void;
};

/** One business area of the ingest daemon: its parts over the daemon's context. */
export type IngestArea = { name: string; parts(ctx: IngestContext): IngestAreaParts };

export const defineIngestArea = (area: IngestArea) => area;
