import fs from 'node:fs';
import http from 'node:http';
import express from 'express';
import type { RecordedAnswer } from './bare-server';

/**
 * The ceiling: recorded responses (status, headers, body bytes) answered with `res.end(buffer)`, looked up by
 * request URL and whether the client accepts gzip. `node` is a bare `http` server; `express` is a minimal
 * Express app with one `app.get` per path and nothing else (the floor of the API's own framework). Run as its
 * own process by bench/lib/bare-server.ts: `node --import tsx bare-server-main.ts <manifest.json> <port> <kind>`.
 */
const [manifestFile, port, kind = 'node'] = process.argv.slice(2);
const answers = new Map<string, { status: number; headers: [string, string][]; body: Buffer }>();
const recorded = JSON.parse(fs.readFileSync(manifestFile!, 'utf8')) as RecordedAnswer[];
for (const a of recorded) {
  answers.set(`${a.gzip ? 'gz' : 'id'} ${a.url}`, { status: a.status, headers: a.headers, body: Buffer.from(a.bodyBase64, 'base64') });
}

const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const a = answers.get(`${gzip ? 'gz' : 'id'} ${req.url}`);
  if (!a) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.statusCode = a.status;
  for (const [k, v] of a.headers) res.setHeader(k, v);
  res.end(a.body);
};

let server: http.Server;
if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  for (const path of new Set(recorded.map((a) => a.url.split('?')[0]!))) app.get(path, (req, res) => answer(req, res));
  server = http.createServer(app);
} else {
  server = http.createServer(answer);
}
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log('listening'));
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
