import type { MiddlewareHandler } from 'hono';
import { validationError } from './errors.ts';

/**
 * Where the server is reached from outside, and the host names it answers to. Absolute links
 * (pagination's next/previous, an invite's accept link) are built from `origin`, never from a
 * request's Host header, which a client chooses: a request naming another host gets a 400 before
 * any handler runs (as Django's ALLOWED_HOSTS does).
 */
export interface PublicUrl {
  /**
   * `https://dash.example.com`: scheme, host and port, no path. Writable once: a server started on
   * port 0 without a public URL learns its own address only when it listens.
   */
  origin: string;
  /** Host names (no port, lower case) a request may name. */
  hosts: ReadonlySet<string>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const LOOPBACK_OR_ANY = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '::']);

/**
 * The public URL `url` (default: this machine's loopback name) of a server listening on
 * `listenHost`; a server listening on loopback or on every address also answers to the loopback
 * names, so a local browser reaches it by either name.
 */
export function publicUrlOf(
  url: string | undefined,
  listenHost = 'localhost',
  extraHosts: readonly string[] = [],
): PublicUrl {
  const parsed = new URL(url ?? 'http://localhost');
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${url} is not an http(s) URL`);
  const bare = listenHost.replace(/^\[|\]$/g, '');
  const hosts = new Set([parsed.hostname.toLowerCase(), ...extraHosts.map((h) => h.toLowerCase())]);
  if (LOOPBACK_OR_ANY.has(bare)) for (const name of LOOPBACK_NAMES) hosts.add(name);
  else hosts.add(bare.includes(':') ? `[${bare}]` : bare.toLowerCase());
  return { origin: parsed.origin, hosts };
}

/** `requestUrl` with its scheme, host and port replaced by the public origin's. */
export function publicRequestUrl(publicUrl: PublicUrl, requestUrl: string): string {
  const request = new URL(requestUrl);
  return `${publicUrl.origin}${request.pathname}${request.search}`;
}

/** Answers 400 to a request whose Host names a host this server does not serve. */
export function allowedHostsOnly(publicUrl: PublicUrl): MiddlewareHandler {
  return async (c, next) => {
    let host: string;
    try {
      host = new URL(c.req.url).hostname.toLowerCase();
    } catch {
      host = '';
    }
    if (!publicUrl.hosts.has(host)) {
      return validationError('invalid_host', 'The Host header names a host this server does not serve.', null).render(
        c,
      );
    }
    await next();
  };
}
