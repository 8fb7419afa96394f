import { BlockedDestinationError, sendOutbound, type OutboundPolicy } from '../net/outbound.ts';

/**
 * One HTTP delivery of a destination (webhook, Slack, a source plugin's composeWebhook):
 * resolves when the receiver answered 2xx; rejects with a DeliveryError that says whether
 * trying again may help (network errors, timeouts, 429 and 5xx) or not (4xx, a refused host).
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface HttpDelivery {
  url: string;
  method?: 'POST' | 'GET';
  headers?: Record<string, string>;
  body?: string;
}

export const DELIVERY_TIMEOUT_MS = 5000;

export async function deliverHttp(d: HttpDelivery, policy: OutboundPolicy): Promise<void> {
  let status: number;
  try {
    ({ status } = await sendOutbound(
      d.url,
      {
        method: d.method ?? 'POST',
        headers: { 'Content-Type': 'application/json', ...d.headers },
        body: d.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      },
      policy,
    ));
  } catch (error) {
    if (error instanceof BlockedDestinationError) throw new DeliveryError(`Refused: ${error.message}.`, false);
    const e = error as Error & { code?: string };
    // A host name that does not exist will not exist a second later either: no retry.
    throw new DeliveryError(
      `${d.url} could not be reached: ${e.name === 'TimeoutError' ? 'timed out' : (e.code ?? e.message)}.`,
      e.code !== 'ENOTFOUND',
    );
  }
  if (status >= 200 && status < 300) return;
  throw new DeliveryError(`${d.url} answered ${status}.`, status === 429 || status >= 500);
}

/** The event as destinations receive it (the production service's webhook body). */
export interface PluginEvent {
  uuid: string;
  event: string;
  distinct_id: string;
  timestamp: string;
  team_id: number;
  properties: Record<string, unknown>;
}

const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

const eventList = (value: unknown): string[] =>
  text(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function headersOf(value: unknown): Record<string, string> {
  const raw = typeof value === 'string' ? (value.trim() ? (JSON.parse(value) as unknown) : {}) : value;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, text(v)]));
}

/** The built-in destinations: what one event becomes (null = this event is not for it). */
export function builtinDelivery(
  kind: string,
  event: PluginEvent,
  config: Record<string, unknown>,
): HttpDelivery | null {
  if (kind === 'webhook') {
    const only = eventList(config.events);
    if (only.length > 0 && !only.includes(event.event)) return null;
    const headers = headersOf(config.headers);
    if (config.auth_token) headers.Authorization = `Bearer ${text(config.auth_token)}`;
    return { url: text(config.url), headers, body: JSON.stringify(event) };
  }
  if (kind === 'slack') {
    if (!eventList(config.events).includes(event.event)) return null;
    const message = text(config.message || '{person} did {event}')
      .replaceAll('{person}', event.distinct_id)
      .replaceAll('{event}', event.event);
    return { url: text(config.webhook_url), body: JSON.stringify({ text: message }) };
  }
  return null;
}

/** Hosts a source plugin's `fetch` may reach: those of the URL values in its config. */
export function configuredHosts(config: Record<string, unknown>): Set<string> {
  const hosts = new Set<string>();
  for (const value of Object.values(config)) {
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) continue;
    try {
      hosts.add(new URL(value).host.toLowerCase());
    } catch {
      // not a URL after all
    }
  }
  return hosts;
}
