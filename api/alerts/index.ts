import { createAlertAuditStore } from '../../db/alerts/alert-audit-store';
import { defineApiArea } from '../api-area';
import { alertAuditRoutes } from './alert-audit-routes';

export const alertsApi = defineApiArea({
  name: 'alerts',
  deps: (ctx) => ({ auditStore: createAlertAuditStore(ctx.db), now: ctx.now }),
  parts: (d) => ({ routes: [alertAuditRoutes(d)] }),
});
