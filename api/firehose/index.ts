import type { Server } from 'node:http';
import { createApiKeyStore } from '../../db/access/api-key-store';
import { createFirehoseLeaseStore } from '../../db/firehose/firehose-lease-store';
import { createFirehoseLogStore } from '../../db/firehose/firehose-log-store';
import { defineApiArea } from '../api-area';
import { createKeyCache } from '../access/key-cache';
import { attachFirehose } from './firehose-server';

/** The Enterprise websocket firehose (README "Enterprise firehose"): served on the HTTP server's upgrades, outside Express. */
export const firehoseApi = defineApiArea({
  name: 'firehose',
  deps: ({ cfg, db, log, now }) => {
    const apiKeyStore = createApiKeyStore(db, { now });
    return {
      db,
      log,
      now,
      store: createFirehoseLogStore(db),
      leases: createFirehoseLeaseStore(db),
      settings: cfg.firehose,
      access: {
        authEnabled: cfg.access.authEnabled,
        keys: createKeyCache((k) => apiKeyStore.findByPlaintext(k), cfg.access.keyCacheTtlMs),
        getKeyById: (id: number) => apiKeyStore.getById(id),
        holderThresholds: cfg.access.holder.thresholds,
        now,
      },
    };
  },
  parts: (d) => ({ servers: [(server: Server) => void attachFirehose(server, d)] }),
});
