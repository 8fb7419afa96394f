import { BlockedDestinationError } from '../../net/outbound.ts';
import type { CheckStep } from './types.ts';

/** One step of a connection test: resolves to what it found, throws when the step fails. */
export interface Step {
  step: string;
  run: () => Promise<string>;
}

/**
 * Runs the steps in order; the first failure is reported with its cause (`describeFailure`) and the
 * steps after it are skipped. `cleanup` runs at the end whatever happened (close a client).
 */
export async function runSteps(steps: readonly Step[], cleanup?: () => Promise<void>): Promise<CheckStep[]> {
  const out: CheckStep[] = [];
  let failed = false;
  try {
    for (const { step, run } of steps) {
      if (failed) {
        out.push({ step, status: 'skipped', detail: 'Not tried: an earlier step failed.' });
        continue;
      }
      try {
        out.push({ step, status: 'passed', detail: await run() });
      } catch (error) {
        failed = true;
        out.push({ step, status: 'failed', detail: describeFailure(error) });
      }
    }
  } finally {
    await cleanup?.().catch(() => undefined);
  }
  return out;
}

const CODES: Record<string, string> = {
  ENOTFOUND: 'DNS: the host name does not resolve',
  EAI_AGAIN: 'DNS: the name server did not answer',
  ECONNREFUSED: 'the connection was refused (nothing listens on that port)',
  ECONNRESET: 'the connection was reset by the server',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  EPIPE: 'the server closed the connection',
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS: the server's certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS: a certificate in the server's chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS: the server's certificate cannot be verified",
  CERT_HAS_EXPIRED: "TLS: the server's certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate does not name this host',
};

/**
 * A failure in words a person can act on, naming its kind (DNS, TLS, connection, refused by the
 * guard) from the error's code; other errors keep their own message (a driver's "password
 * authentication failed", an S3 "NoSuchBucket"). Never includes a config value.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof BlockedDestinationError)
    return `Refused: ${error.message}. This server only connects to public addresses.`;
  const e = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown; name?: unknown };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  if (code && CODES[code]) return `${CODES[code]} (${code}).`;
  if (e?.name === 'TimeoutError') return 'Timed out.';
  const message = typeof e?.message === 'string' && e.message ? e.message : String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
