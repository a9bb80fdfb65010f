import express, { Router } from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

/**
 * Interactive schema UI from the swagger-ui-dist npm assets (no CDN), and the raw document. These are not API
 * operations, so the validator does not see them: OPTIONS is answered here; a missing asset falls through to
 * the app's JSON 404.
 */
export function docsRoutes(apiSpecPath: string): Router {
  const r = Router();
  r.options(['/docs', '/docs/', '/docs/assets/*path', '/openapi.yaml'], (_req, res) => {
    res.set('Allow', 'GET, HEAD, OPTIONS').status(204).end();
  });
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API docs</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.yaml', dom_id: '#ui', deepLinking: true });</script>
</body></html>`;
  r.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(page);
  });
  r.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false, maxAge: '1h' }));
  r.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(apiSpecPath);
  });
  return r;
}
