import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string | null; to: string[]; raw: string };

/**
 * A local SMTP server speaking real SMTP over a socket (the `smtp-server` package): it accepts every message and
 * keeps it whole, so tests read what a mail system would receive. `setRejecting(true)` answers 451 to every
 * message, as a server that is temporarily refusing mail does.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  let rejecting = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (rejecting) {
          const err = Object.assign(new Error('Temporary local problem, try again later'), { responseCode: 451 });
          return callback(err);
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    setRejecting: (v: boolean) => void (rejecting = v),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type SmtpFake = Awaited<ReturnType<typeof startSmtpServer>>;
