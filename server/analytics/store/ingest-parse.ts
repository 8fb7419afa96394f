import { randomUUID } from 'node:crypto';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../../src/contract/json-depth.ts';
import { InputError } from '../../domain-errors.ts';

/** One event ready for the store: validated, its time resolved, its person updates pulled out. */
export interface CaptureEvent {
  uuid: string;
  event: string;
  distinct_id: string;
  timestamp: Date;
  properties: Record<string, unknown>;
  /** `$set` (top level or in properties): person properties to overwrite. */
  set: Record<string, unknown> | null;
  /** `$set_once`: person properties to set only when absent. */
  setOnce: Record<string, unknown> | null;
}

/** What a capture request carried: the events and the project token, if any. */
export interface CapturePayload {
  token: string | null;
  events: CaptureEvent[];
}

export const MAX_EVENT_NAME = 400;
export const MAX_DISTINCT_ID = 400;
/** Timestamps further in the future than this are clamped to the server's clock (as production does). */
const FUTURE_TOLERANCE_MS = 23 * 3_600_000;
/**
 * Events dated before this (a broken client clock, a huge `offset`) are stored at the server's
 * time instead: one token holder cannot push a project's first event to year -200,000 and so
 * break every "all time" chart.
 */
export const EARLIEST_EVENT_TIME = Date.UTC(2000, 0, 1);
/** A client clock off by more than this (judged by `sent_at`) has its timestamps corrected. */
const SKEW_TOLERANCE_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (attr: string, detail: string) => new InputError(attr, detail);
const required = (attr: string, detail: string) => new InputError(attr, detail, 'required');
const join = (prefix: string, name: string) => (prefix ? `${prefix}__${name}` : name);

function parseTime(value: unknown, attr: string): Date | null {
  if (value === undefined || value === null || value === '') return null;
  let date: Date | null = null;
  if (typeof value === 'string' && value.length <= 64) date = new Date(value);
  else if (typeof value === 'number' && Number.isFinite(value)) date = new Date(value);
  if (!date || Number.isNaN(date.getTime())) {
    throw invalid(attr, 'Timestamp is not a valid ISO 8601 date-time.');
  }
  return date;
}

/** Deeper JSON than this is refused (400): it could not be stored or queried sensibly. */
export const MAX_PROPERTY_DEPTH = MAX_JSON_DEPTH;
const depthExceeds = exceedsJsonDepth;

function personUpdate(raw: Json, properties: Json, key: '$set' | '$set_once', attr: string): Json | null {
  const value = raw[key] ?? properties[key];
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw invalid(join(attr, key), `${key} must be an object.`);
  if (depthExceeds(value, MAX_PROPERTY_DEPTH))
    throw invalid(join(attr, key), `${key} is nested deeper than ${MAX_PROPERTY_DEPTH} levels.`);
  return value;
}

/** Validates one event of the wire format; `attr` names it in errors (`batch__3`, or '' for a single event). */
export function normalizeEvent(raw: unknown, attr: string, clock: { now: Date; sentAt: Date | null }): CaptureEvent {
  if (!isObject(raw)) throw invalid(attr || 'event', 'Each event must be a JSON object.');
  const properties = raw.properties ?? {};
  if (!isObject(properties)) throw invalid(join(attr, 'properties'), 'Properties must be a JSON object.');
  if (depthExceeds(properties, MAX_PROPERTY_DEPTH))
    throw invalid(join(attr, 'properties'), `Properties are nested deeper than ${MAX_PROPERTY_DEPTH} levels.`);

  const event = raw.event;
  if (event === undefined || event === null || event === '')
    throw required(join(attr, 'event'), 'Every event needs an "event" name.');
  if (typeof event !== 'string') throw invalid(join(attr, 'event'), 'The event name must be a string.');
  if (event.length > MAX_EVENT_NAME)
    throw invalid(join(attr, 'event'), `The event name is longer than ${MAX_EVENT_NAME} characters.`);

  let distinct = raw.distinct_id ?? properties.distinct_id ?? raw.$distinct_id;
  if (typeof distinct === 'number' && Number.isFinite(distinct)) distinct = String(distinct);
  if (distinct === undefined || distinct === null || distinct === '') {
    throw required(join(attr, 'distinct_id'), 'Every event needs a "distinct_id" (or properties.distinct_id).');
  }
  if (typeof distinct !== 'string' || distinct.length > MAX_DISTINCT_ID) {
    throw invalid(join(attr, 'distinct_id'), `distinct_id must be a string of at most ${MAX_DISTINCT_ID} characters.`);
  }

  let uuid: string;
  if (raw.uuid === undefined || raw.uuid === null) uuid = randomUUID();
  else if (typeof raw.uuid === 'string' && UUID.test(raw.uuid)) uuid = raw.uuid;
  else throw invalid(join(attr, 'uuid'), 'uuid must be a UUID.');

  const now = clock.now.getTime();
  const given = parseTime(raw.timestamp ?? properties.timestamp, join(attr, 'timestamp'));
  const offset = raw.offset;
  if (
    offset !== undefined &&
    offset !== null &&
    (typeof offset !== 'number' || !Number.isFinite(offset) || offset < 0)
  ) {
    throw invalid(join(attr, 'offset'), 'offset must be a non-negative number of milliseconds.');
  }
  let time: number;
  if (given) {
    const skew = clock.sentAt ? now - clock.sentAt.getTime() : 0;
    time = given.getTime() + (Math.abs(skew) > SKEW_TOLERANCE_MS ? skew : 0);
  } else if (typeof offset === 'number') {
    time = now - offset;
  } else {
    time = now;
  }
  if (!Number.isFinite(time) || time > now + FUTURE_TOLERANCE_MS || time < EARLIEST_EVENT_TIME) time = now;

  return {
    uuid: uuid.toLowerCase(),
    event,
    distinct_id: distinct,
    timestamp: new Date(time),
    properties,
    set: personUpdate(raw, properties, '$set', attr),
    setOnce: personUpdate(raw, properties, '$set_once', attr),
  };
}

const tokenOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The wire format of the SDKs: `{api_key|token, batch: [...], sent_at}`, a single event
 * `{event, distinct_id, properties, api_key}`, or a bare array of events. A bad event rejects the
 * whole request (400 naming it); nothing is stored then.
 */
export function parseCapturePayload(body: unknown, now: Date, queryToken: string | null = null): CapturePayload {
  let list: unknown[];
  let prefix: (i: number) => string;
  let sentAtRaw: unknown;
  let token = queryToken;
  if (Array.isArray(body)) {
    list = body;
    prefix = (i) => `batch__${i}`;
  } else if (isObject(body) && body.batch !== undefined) {
    if (!Array.isArray(body.batch)) throw invalid('batch', 'batch must be a list of events.');
    list = body.batch;
    prefix = (i) => `batch__${i}`;
    sentAtRaw = body.sent_at;
    token = tokenOf(body.api_key) ?? tokenOf(body.token) ?? token;
  } else if (isObject(body)) {
    list = [body];
    prefix = () => '';
    sentAtRaw = body.sent_at;
    token = tokenOf(body.api_key) ?? tokenOf(body.token) ?? token;
  } else {
    throw invalid('batch', 'The body must be an event, a list of events or {"batch": [...]}.');
  }
  if (list.length === 0) throw required('batch', 'No events were sent.');
  const sentAt = parseTime(sentAtRaw, 'sent_at');
  const events = list.map((raw, i) => normalizeEvent(raw, prefix(i), { now, sentAt }));
  if (token === null) {
    for (const raw of list) {
      if (!isObject(raw)) continue;
      const props = isObject(raw.properties) ? raw.properties : {};
      token = tokenOf(raw.api_key) ?? tokenOf(raw.token) ?? tokenOf(props.token);
      if (token) break;
    }
  }
  return { token, events };
}
