// The floor of the API benches: a bare node:http server, in its own process, that answers every
// request with one recorded answer (status, headers and body bytes, read from the JSON file named
// on the command line) and does nothing else. Prints `listening <port>` once it listens.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const { status, headers, body } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Buffer.from(body, 'base64');
createServer((request, response) => {
  request.resume();
  response.writeHead(status, { ...headers, 'content-length': bytes.length });
  response.end(bytes);
}).listen(0, '127.0.0.1', function () {
  console.log(`listening ${this.address().port}`);
});
