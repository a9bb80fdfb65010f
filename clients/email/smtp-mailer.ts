import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string; messageId: string };
export type Mailer = { send(m: Mail): Promise<{ messageId: string; accepted: string[]; rejected: string[] }> };

/**
 * Email over SMTP with nodemailer, from `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…` for implicit TLS).
 * The Message-ID is the caller's, derived from the intent, so a reminder re-sent after a crash is recognisably
 * the same message to the recipient's mail system. Timeouts are short: the activity retries, not the socket.
 */
export function createSmtpMailer(o: { url: string; from: string; timeoutMs?: number }): Mailer {
  const t = o.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({ url: o.url, connectionTimeout: t, greetingTimeout: t, socketTimeout: t }, { from: o.from });
  return {
    async send(m) {
      const info = await transport.sendMail({ to: m.to, subject: m.subject, text: m.text, messageId: m.messageId });
      return { messageId: info.messageId, accepted: (info.accepted ?? []).map(String), rejected: (info.rejected ?? []).map(String) };
    },
  };
}
