import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, formatEml } from '../../server/mail/outbox.ts';
import { makeTempDir } from './helpers.ts';

/** A minimal SMTP server on loopback: answers each command, keeps what arrives after DATA. */
function startSmtp(): Promise<{ port: number; received: string[]; close: () => void }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let inData = false;
    let buffer = '';
    socket.write('220 test ready\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      if (inData) {
        if (!buffer.endsWith('\r\n.\r\n')) return;
        received.push(buffer);
        buffer = '';
        inData = false;
        socket.write('250 queued\r\n');
        return;
      }
      const line = buffer.trim();
      buffer = '';
      if (line === 'DATA') {
        inData = true;
        socket.write('354 go ahead\r\n');
      } else if (line === 'QUIT') {
        socket.end('221 bye\r\n');
      } else {
        socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as net.AddressInfo).port, received, close: () => server.close() }),
    ),
  );
}

const dir = makeTempDir('mail-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const message = {
  to: 'ann@example.org',
  subject: 'Join Hedgebox',
  text: 'Hi Ann,\n.\nAccept: https://x.example/invite/1',
};

describe('invite mail', () => {
  it('writes an .eml file to the outbox', async () => {
    const outbox = path.join(dir, 'mail');
    expect(await createMailer({ outboxDir: outbox }).send(message)).toBe(true);
    const [file] = fs.readdirSync(outbox);
    const eml = fs.readFileSync(path.join(outbox, file!), 'utf8');
    expect(file).toMatch(/\.eml$/);
    expect(eml).toContain('To: ann@example.org\r\n');
    expect(eml).toContain('\r\n\r\nHi Ann,\r\n');
  });
  it('keeps line breaks out of headers', () => {
    const eml = formatEml({ ...message, to: 'a@example.org\r\nBcc: evil@example.org' }, new Date());
    expect(eml.split('\r\n\r\n')[0]).not.toMatch(/^Bcc:/m);
  });
  it('sends through SMTP when SMTP_URL is given; an unreachable relay reports no attempt', async () => {
    const smtp = await startSmtp();
    try {
      expect(await createMailer({ outboxDir: null, smtpUrl: `smtp://127.0.0.1:${smtp.port}` }).send(message)).toBe(
        true,
      );
      expect(smtp.received[0]).toContain('Subject: =?UTF-8?B?');
      expect(smtp.received[0]).toContain('\r\n..\r\n'); // a line of one dot is escaped
    } finally {
      smtp.close();
    }
    expect(await createMailer({ outboxDir: null, smtpUrl: `smtp://127.0.0.1:${smtp.port}` }).send(message)).toBe(false);
    expect(await createMailer({ outboxDir: null }).send(message)).toBe(false);
  });
});
