import http from 'node:http';
import type { Registry } from 'prom-client';

/** A bare `/metrics` endpoint for processes that have no HTTP API of their own (the worker). */
export function serveMetrics(registry: Registry, host: string, port: number): http.Server {
  const server = http.createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
  });
  return server.listen(port, host);
}
