// A DNS server on loopback answering TXT questions with `lookup(name)` (lower-cased name → the
// record's values, or undefined: NXDOMAIN). The domain tests and the e2e run (scripts/e2e.mjs)
// both verify domains against it through the reference server's DNS_SERVER.
import dns2 from 'dns2';

export async function startTxtDnsServer(lookup) {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = question && question.type === Packet.TYPE.TXT ? lookup(question.name.toLowerCase()) : undefined;
      if (!Array.isArray(values))
        response.header.rcode = 3; // NXDOMAIN
      else
        for (const data of values)
          response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data });
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp.port}`, close: () => server.close() };
}
