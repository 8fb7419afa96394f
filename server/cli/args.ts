import path from 'node:path';

/** A usage mistake: printed without a stack, exit code 2. */
export class UsageError extends Error {}

export const DEFAULT_PORT = 8000;
export const DEFAULT_DATA_DIR = '.data';

export function dataDirFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag ?? env.DATA_DIR ?? DEFAULT_DATA_DIR);
}

export function portFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const raw = flag ?? env.PORT ?? String(DEFAULT_PORT);
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535)
    throw new UsageError(`invalid port '${raw}': expected an integer from 0 to 65535`);
  return port;
}

/** The `http(s)://host[:port][/base]` given to `--<name>`, without its trailing slash. */
export function httpUrlFrom(flag: string | undefined, name = 'upstream'): string | undefined {
  if (flag === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(flag);
  } catch {
    throw new UsageError(`invalid --${name} '${flag}': expected a URL such as https://app.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--${name} must be an http(s) URL, got '${flag}'`);
  return url.toString().replace(/\/$/, '');
}

/** The `http(s)://host[:port][/base]` to forward /api to. */
export const upstreamFrom = (flag: string | undefined): string | undefined => httpUrlFrom(flag, 'upstream');
