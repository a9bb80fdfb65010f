import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a path answers, in order (the last one repeats): a status, a hang, a 200 whose body trickles, a redirect. */
export type ReceiverStep = number | 'hang' | 'slow-body' | { redirect: string };
export type ReceivedRequest = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };

/**
 * A webhook receiver over a real socket: each path follows its script of answers and every request is kept with its
 * raw body and headers, as a customer's endpoint would see it.
 */
export async function startWebhookReceiver() {
  const scripts = new Map<string, ReceiverStep[]>();
  const received: ReceivedRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const script = scripts.get(path) ?? [200];
      const step = script.length > 1 ? script.shift()! : script[0]!;
      if (step === 'hang') return void open.add(res);
      if (step === 'slow-body') {
        open.add(res);
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('accepted');
        const t = setInterval(() => res.write('.'), 200);
        res.on('close', () => clearInterval(t));
        return;
      }
      if (typeof step === 'object') return void res.writeHead(302, { Location: step.redirect }).end();
      res.writeHead(step, { 'Content-Type': 'text/plain' }).end(String(step));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    script: (path: string, steps: ReceiverStep[]) => void scripts.set(path, [...steps]),
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
