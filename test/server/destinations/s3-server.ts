import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { S3Client } from '@aws-sdk/client-s3';
import net from 'node:net';
import { makeTempDir } from '../helpers.ts';

/** The credentials s3rver knows. */
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';

interface KoaContext {
  method: string;
  originalUrl: string;
  headers: IncomingHttpHeaders;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships no types: loaded through require and described by the little used here.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Whether a request's Signature V4 matches the secret: s3rver checks the access key but not V4
 * signatures, and a wrong secret must fail here as it does on S3.
 */
function signatureMatches(ctx: KoaContext, secret: string): boolean {
  const auth = String(ctx.headers.authorization ?? '');
  const parts =
    /Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)/.exec(
      auth,
    );
  // An unknown key is s3rver's to refuse (InvalidAccessKeyId), as S3 does before looking at the signature.
  if (!parts || parts[1] !== S3_ACCESS_KEY_ID) return true;
  const [, , date, region, service, signedHeaders, signature] = parts as unknown as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const [path = '/', query = ''] = ctx.originalUrl.split('?');
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const [k, v] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      return [encode(decodeURIComponent(k)), encode(decodeURIComponent(v))] as const;
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map(
      (h) =>
        `${h}:${String(ctx.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [
    ctx.method,
    path,
    canonicalQuery,
    headers,
    signedHeaders,
    String(ctx.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
  ].join('\n');
  const toSign = [
    'AWS4-HMAC-SHA256',
    String(ctx.headers['x-amz-date']),
    `${date}/${region}/${service}/aws4_request`,
    sha256(canonical),
  ].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

export interface LocalS3 {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** A port nothing listens on (just released by the system). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * s3rver in process on 127.0.0.1 (`port`, else a free one), keeping its objects in `dir` (a new
 * temp folder unless given, removed on stop; a given one is kept, so a restart on it finds the
 * objects again), with `buckets`.
 */
export async function startS3(options: { buckets: string[]; port?: number; dir?: string }): Promise<LocalS3> {
  const dir = options.dir ?? makeTempDir('s3rver-');
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory: dir,
    configureBuckets: options.buckets.map((name) => ({ name })),
  });
  server.middleware.unshift(async (ctx, next) => {
    if (!signatureMatches(ctx, S3_SECRET_ACCESS_KEY)) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code>' +
        '<Message>The request signature we calculated does not match the signature you provided.</Message></Error>';
      return;
    }
    await next();
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      await server.close();
      // A folder given by the caller outlives this server (a restart reads it again).
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A client of the local server, to look at what an export wrote. */
export function s3Client(endpoint: string): S3Client {
  // The SDK's own switch for its warning about Node 20 (the destination sets it too).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
