import type { ReferenceEvent } from '../../../server/analytics/types.ts';

/** Paths order a person's events by (timestamp, uuid). */
const byTime = (a: ReferenceEvent, b: ReferenceEvent) =>
  a.timestamp - b.timestamp || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
const DAY_MS = 86_400_000;

/**
 * Reference paths (plain loops, clarity over speed). Rules (docs/api.md, with the choices
 * documented in server/analytics/engines/paths.ts):
 * 1. Events in [start of the (UTC) day holding `from`, to] passing the global filter and the event types; item = $current_url
 *    of $pageview, $screen_name of $screen, else the event name (a missing property: the name).
 * 2. Cleaning rules, in order: every match of `regex` is replaced by `alias` (literally).
 *    Events whose event name or cleaned item is in `exclude` are dropped.
 * 3. Per person, in (timestamp, uuid) order, a new session starts after a gap over 30 minutes.
 * 4. Consecutive repeats of the same item in a session collapse into the first.
 * 5. start point: the session's path begins at its first occurrence (sessions without it are
 *    dropped); end point: it ends at the first occurrence at or after the start (sessions
 *    without it are dropped). Then at most `stepLimit` items: the first ones, or with only an
 *    end point the last ones.
 * 6. Edges between positions i and i+1: `value` = distinct persons, average_conversion_time =
 *    mean milliseconds over every occurrence. Ordered by value desc, source, target.
 */

export type PathEventType = '$pageview' | '$screen' | 'custom_event' | 'hogql';

export interface RefPathInput {
  events: readonly ReferenceEvent[];
  from: number;
  to: number;
  filter?: (e: ReferenceEvent) => boolean;
  /** Empty or missing: all events; with `hogql`, all events too. */
  eventTypes?: PathEventType[];
  /** With `hogql` among the types: an event's item, as text (null: the event name). */
  hogql?: (e: ReferenceEvent) => string | null;
  cleaning?: { alias: string; regex: string }[];
  exclude?: string[];
  startPoint?: string;
  endPoint?: string;
  stepLimit: number;
  edgeLimit?: number;
}

export interface RefEdge {
  source: string;
  target: string;
  value: number;
  average_conversion_time: number;
}

export const SESSION_GAP_MS = 30 * 60_000;

/**
 * An event's item: a page's URL, a screen's name, else its name. With a HogQL expression, the
 * expression's value takes the name's place, and the URL's and screen name's unless their
 * types are listed too; a missing value is the event name.
 */
export function pathItem(
  e: ReferenceEvent,
  types: PathEventType[] = [],
  hogql?: (e: ReferenceEvent) => string | null,
): string {
  const useHogql = types.includes('hogql') && hogql !== undefined;
  const prop =
    e.event === '$pageview' && (!useHogql || types.includes('$pageview'))
      ? '$current_url'
      : e.event === '$screen' && (!useHogql || types.includes('$screen'))
        ? '$screen_name'
        : null;
  if (prop === null) return (useHogql ? hogql(e) : null) ?? e.event;
  const v = e.properties[prop];
  if (v === undefined || v === null) return e.event;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function typeMatches(e: ReferenceEvent, types: PathEventType[] | undefined): boolean {
  if (!types || types.length === 0 || types.includes('hogql')) return true;
  return types.some((t) => (t === 'custom_event' ? !e.event.startsWith('$') : e.event === t));
}

interface Step {
  item: string;
  timestamp: number;
}

/** Each person's sessions as item sequences, after steps 1-5. */
export function referenceSessions(input: RefPathInput): Map<string, Step[][]> {
  const byPerson = new Map<string, ReferenceEvent[]>();
  for (const e of input.events) {
    if (e.timestamp < Math.floor(input.from / DAY_MS) * DAY_MS || e.timestamp > input.to) continue;
    if (input.filter && !input.filter(e)) continue;
    if (!typeMatches(e, input.eventTypes)) continue;
    byPerson.set(e.person_id, [...(byPerson.get(e.person_id) ?? []), e]);
  }
  const out = new Map<string, Step[][]>();
  for (const [person, list] of byPerson) {
    const steps: Step[] = [];
    for (const e of [...list].sort(byTime)) {
      let item = pathItem(e, input.eventTypes, input.hogql);
      for (const rule of input.cleaning ?? []) item = item.replace(new RegExp(rule.regex, 'g'), () => rule.alias);
      if (input.exclude?.includes(item) || input.exclude?.includes(e.event)) continue;
      steps.push({ item, timestamp: e.timestamp });
    }
    const sessions: Step[][] = [];
    let current: Step[] = [];
    let lastTime = -Infinity;
    for (const s of steps) {
      if (current.length > 0 && s.timestamp - lastTime > SESSION_GAP_MS) {
        sessions.push(current);
        current = [];
      }
      lastTime = s.timestamp;
      if (current.length === 0 || current[current.length - 1]!.item !== s.item) current.push(s);
    }
    if (current.length > 0) sessions.push(current);
    out.set(
      person,
      sessions.map((s) => trim(s, input)).filter((s): s is Step[] => s !== null),
    );
  }
  return out;
}

function trim(session: Step[], input: RefPathInput): Step[] | null {
  let begin = 0;
  if (input.startPoint !== undefined) {
    begin = session.findIndex((s) => s.item === input.startPoint);
    if (begin < 0) return null;
  }
  let end = session.length - 1;
  if (input.endPoint !== undefined) {
    end = session.findIndex((s, i) => i >= begin && s.item === input.endPoint);
    if (end < 0) return null;
  }
  const path = session.slice(begin, end + 1);
  if (input.endPoint !== undefined && input.startPoint === undefined) return path.slice(-input.stepLimit);
  return path.slice(0, input.stepLimit);
}

export function referencePaths(input: RefPathInput): RefEdge[] {
  const edges = new Map<string, { source: string; target: string; persons: Set<string>; total: number; n: number }>();
  for (const [person, sessions] of referenceSessions(input)) {
    for (const path of sessions) {
      for (let i = 0; i + 1 < path.length; i++) {
        const source = `${i + 1}_${path[i]!.item}`;
        const target = `${i + 2}_${path[i + 1]!.item}`;
        const key = JSON.stringify([source, target]);
        const edge = edges.get(key) ?? { source, target, persons: new Set<string>(), total: 0, n: 0 };
        edge.persons.add(person);
        edge.total += path[i + 1]!.timestamp - path[i]!.timestamp;
        edge.n += 1;
        edges.set(key, edge);
      }
    }
  }
  const list = [...edges.values()]
    .map((e) => ({ source: e.source, target: e.target, value: e.persons.size, average_conversion_time: e.total / e.n }))
    .sort((a, b) => b.value - a.value || cmp(a.source, b.source) || cmp(a.target, b.target));
  return input.edgeLimit === undefined ? list : list.slice(0, input.edgeLimit);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
