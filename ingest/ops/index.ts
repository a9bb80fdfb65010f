import { createHeartbeatStore } from '../../db/ops/heartbeat-store';
import { startHeartbeat } from '../../platform/heartbeat';
import { defineIngestArea } from '../ingest-area';

/** The ops area in ingest: the daemon's heartbeat, which /api/health reports. */
export const opsIngest = defineIngestArea({
  name: 'ops',
  parts: ({ cfg, db, log }) => ({ start: () => startHeartbeat(createHeartbeatStore(db), 'ingest', cfg.heartbeatIntervalS, log) }),
});
