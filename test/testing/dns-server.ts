import dns2 from 'dns2';

/** A DNS server on loopback answering TXT questions from `records` (name → values); anything else is NXDOMAIN. */
export interface TxtServer {
  /** `127.0.0.1:<port>`: what `DNS_SERVER` takes. */
  address: string;
  records: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startTxtServer(): Promise<TxtServer> {
  const records = new Map<string, string[]>();
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = question && question.type === Packet.TYPE.TXT ? records.get(question.name.toLowerCase()) : undefined;
      if (!question || !values) {
        response.header.rcode = 3; // NXDOMAIN
      } else {
        for (const data of values) {
          const answer = { name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data };
          // The typings want a Resource instance; the encoder reads these plain fields.
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp!.port}`, records, close: () => server.close() };
}
