import express, { Router } from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

/** Interactive schema UI from the swagger-ui-dist npm assets (no CDN), and the raw document. */
export function docsRoutes(apiSpecPath: string): Router {
  const r = Router();
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
