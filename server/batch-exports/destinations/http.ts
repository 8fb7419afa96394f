import { BlockedDestinationError, sendOutbound, type OutboundResponse } from '../../net/outbound.ts';
import { runSteps } from './check.ts';
import { DeliveryError, type CheckConnection, type Deliver, type Destination } from './types.ts';

export const DEFAULT_HTTP_BATCH_SIZE = 1000;
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/** Statuses worth another attempt: the receiver may recover. Other 4xx fail the run at once. */
const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/** Why fetch failed, without the request (no headers, so no token) in the text. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.name : 'network error';
}

/**
 * HTTP: POSTs the records as JSON lines (`application/x-ndjson`), `httpBatchSize` per request,
 * to `config.url` with `Authorization: Bearer <config.token>`. An interval without records sends
 * nothing. A retry sends the whole interval again (at-least-once delivery).
 */
export const deliverHttp: Deliver = async ({ config, records, total, log, progress }, options) => {
  const url = String(config.url);
  const token = String(config.token);
  const size = options.httpBatchSize ?? DEFAULT_HTTP_BATCH_SIZE;
  let sent = 0;
  let batch = 0;
  for await (const chunk of records.batches(size)) {
    batch += 1;
    const body = `${chunk.map((r) => JSON.stringify(r)).join('\n')}\n`;
    let response: OutboundResponse;
    try {
      response = await sendOutbound(
        url,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
          body,
          timeoutMs: options.httpTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
        },
        { allowHosts: options.allowHosts ?? [] },
      );
    } catch (error) {
      if (error instanceof BlockedDestinationError) {
        throw new DeliveryError(
          `HTTP destination ${url} is not allowed: ${error.message}. This server only delivers to public addresses.`,
          false,
        );
      }
      throw new DeliveryError(
        `HTTP destination ${url} could not be reached (${networkReason(error)}) on batch ${batch}; ${sent} of ${total} records delivered.`,
        true,
      );
    }
    if (response.status < 200 || response.status > 299) {
      throw new DeliveryError(
        `HTTP destination ${url} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} on batch ${batch}; ${sent} of ${total} records delivered.`,
        retryableStatus(response.status),
      );
    }
    sent += chunk.length;
    progress(sent);
    log('DEBUG', `Batch ${batch}: ${chunk.length} records delivered (${sent} of ${total}).`);
  }
  return sent;
};

/** Test connection: one empty batch (no records), authenticated, must get a 2xx answer. */
const checkHttp: CheckConnection = (config, options) => {
  const url = String(config.url);
  return runSteps([
    {
      step: 'Send an empty batch',
      run: async () => {
        const response = await sendOutbound(
          url,
          {
            method: 'POST',
            headers: { Authorization: `Bearer ${String(config.token)}`, 'Content-Type': 'application/x-ndjson' },
            body: '',
            timeoutMs: options.httpTimeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
          },
          { allowHosts: options.allowHosts ?? [] },
        );
        if (response.status < 200 || response.status > 299) {
          throw new Error(
            `The endpoint answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
          );
        }
        return `The endpoint answered ${response.status}.`;
      },
    },
  ]);
};

export const httpDestination: Destination = { deliver: deliverHttp, check: checkHttp };
