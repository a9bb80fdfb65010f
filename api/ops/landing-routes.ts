import { Router } from 'express';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Launchpad Graduation Prediction API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto}</style>
</head><body>
<h1>Launchpad Graduation Prediction API</h1>
<p>Calibrated graduation, rug and runner probabilities for every new non-mayhem launch, scored at 30 s and 60 s.
Interactive schema: <a href="/docs">/docs</a> · raw document: <a href="/openapi.yaml">/openapi.yaml</a> ·
<a href="/api/scope">scope</a> · <a href="/api/health">health</a> · <a href="/api/status">status</a></p>
<h2>Live demo</h2>
<pre id="live">loading /api/live …</pre>
<script>
async function tick(){
  try{const r=await fetch('/api/live');const t=await r.text();
    document.getElementById('live').textContent = r.ok ? JSON.stringify(JSON.parse(t),null,2).slice(0,20000) : r.status+' '+t;}
  catch(e){document.getElementById('live').textContent=String(e);}
}
tick();setInterval(tick,5000);
</script>
</body></html>`;

export function landingRoutes(): Router {
  const r = Router();
  r.get('/', (_req, res) => {
    res.type('html').set('Cache-Control', 'public, max-age=300').send(PAGE);
  });
  return r;
}
