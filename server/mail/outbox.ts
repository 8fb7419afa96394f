import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sendSmtp } from './smtp.ts';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text body. */
  text: string;
}

/** Sends mail; resolves to whether the attempt was made (written to the outbox or handed to SMTP). */
export interface Mailer {
  send(message: MailMessage): Promise<boolean>;
}

export const MAIL_FROM = 'Analytics dashboard <no-reply@dashboard.invalid>';

/** Header values never carry a line break (no header injection from names or emails). */
const headerValue = (value: string) => value.replace(/[\r\n]+/g, ' ');

/** One RFC 5322 message with a UTF-8 quoted-printable free body (8bit, CRLF lines). */
export function formatEml(message: MailMessage, at: Date): string {
  const headers = [
    `From: ${MAIL_FROM}`,
    `To: ${headerValue(message.to)}`,
    `Subject: =?UTF-8?B?${Buffer.from(headerValue(message.subject), 'utf8').toString('base64')}?=`,
    `Date: ${at.toUTCString()}`,
    `Message-ID: <${randomUUID()}@dashboard.invalid>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${message.text.replace(/\r?\n/g, '\r\n')}\r\n`;
}

/**
 * The invite mailer: SMTP when `smtpUrl` is given (`smtp://host:port`), otherwise `.eml` files in
 * `outboxDir` (the data dir's `mail/`). Without either nothing is sent and `send` resolves false.
 */
export function createMailer(options: {
  outboxDir: string | null;
  smtpUrl?: string | undefined;
  now?: () => Date;
}): Mailer {
  const now = options.now ?? (() => new Date());
  return {
    async send(message) {
      const eml = formatEml(message, now());
      if (options.smtpUrl) {
        try {
          await sendSmtp(options.smtpUrl, MAIL_FROM, message.to, eml);
          return true;
        } catch {
          return false;
        }
      }
      if (!options.outboxDir) return false;
      fs.mkdirSync(options.outboxDir, { recursive: true, mode: 0o700 });
      const at = now().toISOString().replace(/[:.]/g, '-');
      fs.writeFileSync(path.join(options.outboxDir, `${at}-${randomUUID()}.eml`), eml, { mode: 0o600 });
      return true;
    },
  };
}

/** The outbox of a store's data dir (`<dir>/mail`), or null for an in-memory store. */
export function outboxDirOf(storeFile: string): string | null {
  return storeFile === ':memory:' || storeFile === '' ? null : path.join(path.dirname(storeFile), 'mail');
}
