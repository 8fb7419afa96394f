// A DNS server on loopback for the e2e run: it answers TXT questions from a JSON file of
// `{ "<name>": ["<value>", …] }` read on every question, so a test publishes a record by writing
// the file (E2E_DNS_RECORDS) and the reference server (DNS_SERVER) sees it at once.
import { readFileSync, writeFileSync } from 'node:fs';
import dns2 from 'dns2';

export async function startRecordsDnsServer(recordsFile) {
  writeFileSync(recordsFile, '{}');
  const { Packet } = dns2;
  const read = () => {
    try {
      return JSON.parse(readFileSync(recordsFile, 'utf8'));
    } catch {
      return {};
    }
  };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = question && question.type === Packet.TYPE.TXT ? read()[question.name.toLowerCase()] : undefined;
      if (!Array.isArray(values)) response.header.rcode = 3; // NXDOMAIN
      else for (const data of values) response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data });
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp.port}`, close: () => server.close() };
}
