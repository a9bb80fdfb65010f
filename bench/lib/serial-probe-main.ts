import http from 'node:http';

/**
 * The child of `serialProbe`: GETs each path of stdin's `{ base, paths, warmup }` one after another on one keep-alive
 * connection and prints each one's milliseconds (request written → last byte read) as JSON, after the first `warmup`.
 * A process of its own with nothing else on its heap, so its own pauses do not end up in the figures.
 */
async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const { base, paths, warmup } = JSON.parse(input) as { base: string; paths: string[]; warmup: number };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      http
        .get(`${base}${path}`, { agent }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`${path} answered ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const ms: number[] = [];
  for (let i = 0; i < paths.length; i++) {
    const t = await get(paths[i]!);
    if (i >= warmup) ms.push(t);
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(ms));
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err));
  process.exit(1);
});
