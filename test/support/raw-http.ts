import net from 'node:net';

/**
 * One HTTP/1.1 request written byte for byte over a socket, so header lines a client library would merge or refuse
 * (a repeated Authorization header, say) reach the server as sent. Answers the status, the headers (lowercased names,
 * last one wins) and the body text.
 */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headerLines: string[],
  body?: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (c) => chunks.push(c));
    s.on('error', reject);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: text.slice(head.length + 4) });
    });
    const extra = body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`];
    s.write([`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headerLines, ...extra, '', body ?? ''].join('\r\n'));
  });
}
