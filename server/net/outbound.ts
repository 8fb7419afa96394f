import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Outbound HTTP to addresses users configure (batch-export HTTP destinations): never to this
 * machine or its private network. A destination's host is resolved, and every address it
 * resolves to is checked, on the connection itself (a custom `lookup`, so a DNS answer that
 * changes between check and connect cannot slip through), and again on every redirect. Hosts
 * on the allow-list (`--allow-destination`, for tests and private deployments) skip the check.
 */

const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (any textual form, a dotted v4 tail included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    if (net.isIPv4(v4[1]!) === false) return null;
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':').map((h) => Number.parseInt(h, 16)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return null;
  const groups = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries, where it is one a host could route to: v4-compatible
 * (::a.b.c.d), v4-mapped (::ffff:a.b.c.d), v4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96,
 * 64:ff9b:1::/48), 6to4 (2002:AB:CD::) and Teredo (2001:0::, the client's address inverted).
 */
function embeddedV4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff) && !(g[5] === 0 && g[6] === 0)) return v4Of(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  if (g[0] === 0x2001 && g[1] === 0) return v4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff);
  return null;
}

/** Whether `address` is loopback, private, link-local, multicast or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const v4 = embeddedV4(groups);
  if (v4 !== null && BLOCKED.check(v4, 'ipv4')) return true;
  return BLOCKED.check(address, 'ipv6');
}

/** The target is not a public address (or the URL is not http(s)): refused before any byte is sent. */
export class BlockedDestinationError extends Error {}

export interface OutboundPolicy {
  /** Host names or IPs that may be private (exact, case-insensitive). */
  allowHosts?: readonly string[];
}

export interface OutboundRequest {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Keep up to this many bytes of the response body (default: the body is drained unread). */
  readBodyBytes?: number;
}

export interface OutboundResponse {
  status: number;
  statusText: string;
  /** The body's first `readBodyBytes` bytes as UTF-8, when asked for. */
  body?: string;
}

const MAX_REDIRECTS = 5;

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * A `lookup` that fails (code EBLOCKED) when any address `host` resolves to is private, unless
 * the policy allows the host. Pass it to any client's socket (an http Agent, `net.connect`) so
 * the address checked is the address connected to.
 */
export function guardedLookup(host: string, policy: OutboundPolicy = {}): net.LookupFunction {
  const allowed = isAllowedHost(host, policy);
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const bad = allowed ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad || list.length === 0) {
        return callback(
          Object.assign(
            new BlockedDestinationError(
              `${host} resolves to ${bad?.address ?? 'no address'}, a private, loopback or link-local address`,
            ),
            { code: 'EBLOCKED' },
          ),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Whether the policy lets `host` (a name or an IP, brackets allowed) be private. */
export function isAllowedHost(host: string, policy: OutboundPolicy): boolean {
  const bare = bareHost(host);
  return (policy.allowHosts ?? []).some((h) => bareHost(h) === bare);
}

/**
 * The addresses a destination's `host` may be reached at, checked: rejects with a
 * BlockedDestinationError when the host is (or resolves to) a private address and is not allowed,
 * and with the resolver's error (ENOTFOUND, …) when it does not resolve. For clients that connect
 * by themselves (a database driver): connect to one of the returned addresses.
 */
export async function resolveDestinationHost(host: string, policy: OutboundPolicy = {}): Promise<dns.LookupAddress[]> {
  const bare = bareHost(host);
  const allowed = isAllowedHost(bare, policy);
  const family = net.isIP(bare);
  if (family !== 0) {
    if (!allowed && isPrivateAddress(bare))
      throw new BlockedDestinationError(`${bare} is a private, loopback or link-local address`);
    return [{ address: bare, family }];
  }
  const list = await dns.promises.lookup(bare, { all: true });
  const bad = allowed ? undefined : list.find((a) => isPrivateAddress(a.address));
  if (bad || list.length === 0)
    throw new BlockedDestinationError(
      `${bare} resolves to ${bad?.address ?? 'no address'}, a private, loopback or link-local address`,
    );
  return list;
}

const timeoutError = () => Object.assign(new Error('timed out'), { name: 'TimeoutError' });

/**
 * One request, ended (TimeoutError) at `deadline` (epoch ms). A timer per request, not an
 * AbortSignal: the signal's set-up and listeners cost about as much as the request itself
 * (a destination sends one request per event).
 */
function once(
  url: URL,
  request: OutboundRequest,
  policy: OutboundPolicy,
  deadline: number,
): Promise<{ status: number; statusText: string; location: string | null; body?: string }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BlockedDestinationError(`${url.protocol} URLs are not allowed`);
  const host = bareHost(url.hostname);
  const allowed = isAllowedHost(host, policy);
  if (!allowed && net.isIP(host) && isPrivateAddress(host)) {
    throw new BlockedDestinationError(`${host} is a private, loopback or link-local address`);
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const fail = (error: Error & { code?: string }) => {
      clearTimeout(timer);
      if (error.code === 'EBLOCKED') reject(new BlockedDestinationError(error.message));
      else reject(timedOut ? timeoutError() : error);
    };
    const req = client.request(
      url,
      {
        method: request.method,
        headers: request.headers,
        ...(allowed ? {} : { lookup: guardedLookup(host, policy) }),
      },
      (res) => {
        const keep = request.readBodyBytes ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        if (keep > 0) {
          res.on('data', (chunk: Buffer) => {
            if (kept < keep) chunks.push(chunk.subarray(0, keep - kept));
            kept += chunk.length;
          });
        } else {
          res.resume(); // the body is not needed: drain it so the socket can close
        }
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            location: res.headers.location ?? null,
            ...(keep > 0 ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
          });
        });
        res.on('error', fail);
      },
    );
    const timer = setTimeout(
      () => {
        timedOut = true;
        req.destroy(timeoutError());
      },
      Math.max(0, deadline - Date.now()),
    );
    timer.unref();
    req.on('error', fail);
    req.end(request.body);
  });
}

/**
 * Sends `request` to `url` under `policy`. 307/308 redirects are followed (at most five, each
 * target checked like the first); other redirects are answered as they are. Rejects with a
 * BlockedDestinationError for a refused target, with a TimeoutError past `timeoutMs`, and with the
 * socket's error otherwise.
 */
export async function sendOutbound(
  url: string,
  request: OutboundRequest,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const deadline = Date.now() + request.timeoutMs;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new BlockedDestinationError(`${url} is not a valid URL`);
  }
  for (let hop = 0; ; hop += 1) {
    const res = await once(target, request, policy, deadline);
    if ((res.status === 307 || res.status === 308) && res.location && hop < MAX_REDIRECTS) {
      target = new URL(res.location, target);
      continue;
    }
    return { status: res.status, statusText: res.statusText, ...(res.body !== undefined ? { body: res.body } : {}) };
  }
}
