import net from 'node:net';

/**
 * A minimal SMTP client (RFC 5321, no TLS or auth): enough for a local relay such as the one of
 * a container or a test. `url` is `smtp://host[:port]` (default port 25). Rejects on any
 * non-2xx/3xx reply or after 10 s.
 */
export function sendSmtp(url: string, from: string, to: string, eml: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const address = (s: string) => `<${(/<([^>]*)>/.exec(s)?.[1] ?? s).replace(/[\r\n<>]/g, '')}>`;
  const body = eml.replace(/\r\n\./g, '\r\n..');
  const steps = [
    `HELO dashboard`,
    `MAIL FROM:${address(from)}`,
    `RCPT TO:${address(to)}`,
    'DATA',
    `${body}\r\n.`,
    'QUIT',
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) || 25 });
    socket.setTimeout(10_000, () => socket.destroy(new Error('SMTP timeout')));
    let buffer = '';
    let step = 0;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      // A reply is complete at a line "NNN text" (a space after the code, not a dash).
      const lines = buffer.split('\r\n');
      const last = lines.findLast((l) => /^\d{3} /.test(l));
      if (!last) return;
      buffer = '';
      if (!/^[23]/.test(last)) {
        socket.destroy();
        reject(new Error(`SMTP: ${last}`));
        return;
      }
      if (step >= steps.length) {
        socket.end();
        resolve();
        return;
      }
      socket.write(`${steps[step++]}\r\n`);
    });
    socket.on('error', reject);
    socket.on('close', () => (step >= steps.length ? resolve() : reject(new Error('SMTP connection closed'))));
  });
}
