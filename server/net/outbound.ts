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
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32],
] as const) BLOCKED.addSubnet(prefix, bits, 'ipv6');

/** Whether `address` is loopback, private, link-local, multicast or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
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

/** A `lookup` for http.request that fails when any resolved address is private. */
function guardedLookup(host: string): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad || list.length === 0) {
        return callback(Object.assign(new BlockedDestinationError(`${host} resolves to ${bad?.address ?? 'no address'}, a private, loopback or link-local address`), { code: 'EBLOCKED' }), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

const timeoutError = () => Object.assign(new Error('timed out'), { name: 'TimeoutError' });

/**
 * One request, ended (TimeoutError) at `deadline` (epoch ms). A timer per request, not an
 * AbortSignal: the signal's set-up and listeners cost about as much as the request itself
 * (a destination sends one request per event).
 */
function once(url: URL, request: OutboundRequest, policy: OutboundPolicy, deadline: number): Promise<{ status: number; statusText: string; location: string | null; body?: string }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedDestinationError(`${url.protocol} URLs are not allowed`);
  const host = bareHost(url.hostname);
  const allowed = (policy.allowHosts ?? []).some((h) => h.toLowerCase() === host);
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
    const req = client.request(url, {
      method: request.method, headers: request.headers,
      ...(allowed ? {} : { lookup: guardedLookup(host) }),
    }, (res) => {
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
          status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', location: res.headers.location ?? null,
          ...(keep > 0 ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
        });
      });
      res.on('error', fail);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(timeoutError());
    }, Math.max(0, deadline - Date.now()));
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
export async function sendOutbound(url: string, request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
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
