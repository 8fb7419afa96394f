import { DAY_MS, HOUR_MS, toWall } from '../../../server/analytics/query/dates.ts';
import type { Node } from '../../../server/analytics/hogql/parser.ts';
import { NUMERIC_TEXT, parseDateText, unifyTypes, type HogqlType } from '../../../server/analytics/hogql/types.ts';
import type { ReferenceEvent } from '../../../server/analytics/types.ts';
import { personUuid } from '../harness.ts';

/**
 * HogQL expressions evaluated in plain TypeScript, one event at a time, following the rules of
 * docs/hogql.md (the parser is shared with the engine; typing and evaluation are written again
 * here). SQL's three-valued logic: null is "unknown".
 */

export type Time = { wall: number; date: boolean };
export type Value = string | number | boolean | Time | null;

export interface RefEnv {
  timeZone: string;
  weekStart: 0 | 1;
  now: number;
}

const isTime = (v: Value): v is Time => typeof v === 'object' && v !== null;
const NUMERIC = new RegExp(NUMERIC_TEXT);

/** DuckDB's text of a DOUBLE (shortest digits; exponent below 1e-4 and from 1e16), without ".0". */
export function numberText(x: number): string {
  const v = x + 0;
  const [mant, e] = v.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 16) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function timeText(t: Time): string {
  const d = new Date(t.wall);
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return t.date ? day : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

export function toNumber(v: Value): number | null {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    if (!NUMERIC.test(v)) return null;
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  throw new Error('date as number');
}
export function toText(v: Value): string | null {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return String(v);
  return timeText(v);
}
export function toBool(v: Value): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v === 'true' ? true : v === 'false' ? false : null;
  throw new Error('date as condition');
}
function toTime(v: Value): Time | null {
  if (v === null || isTime(v)) return v;
  if (typeof v === 'string') {
    const w = parseDateText(v);
    return w === null ? null : { wall: w, date: false };
  }
  throw new Error('not a date');
}
function convert(v: Value, to: HogqlType): Value {
  switch (to) {
    case 'number':
      return toNumber(v);
    case 'text':
      return toText(v);
    case 'bool':
      return toBool(v);
    case 'date':
    case 'datetime': {
      const t = toTime(v);
      return t === null ? null : { wall: t.wall, date: to === 'date' };
    }
    default:
      return v;
  }
}

/** The static type of a node (as the compiler decides it). */
export function typeOf(n: Node): HogqlType {
  switch (n.kind) {
    case 'number':
    case 'neg':
    case 'arith':
      return 'number';
    case 'string':
    case 'property':
      return 'text';
    case 'bool':
    case 'not':
    case 'logic':
    case 'compare':
    case 'in':
      return 'bool';
    case 'null':
      return 'null';
    case 'column':
      return n.name === 'timestamp' ? 'datetime' : 'text';
    case 'call':
      switch (n.name) {
        case 'if':
        case 'multiIf':
          return unifyTypes(n.args.filter((_, i) => i % 2 === 1 || i === n.args.length - 1).map(typeOf));
        case 'coalesce':
          return unifyTypes(n.args.map(typeOf));
        case 'lower':
        case 'upper':
        case 'trim':
        case 'concat':
        case 'toString':
        case 'substring':
          return 'text';
        case 'toDate':
        case 'toStartOfWeek':
        case 'toStartOfMonth':
          return 'date';
        case 'toStartOfDay':
        case 'now':
          return 'datetime';
        default:
          return 'number';
      }
  }
}

function compareAs(types: HogqlType[]): HogqlType {
  if (types.includes('number')) return 'number';
  if (types.includes('datetime') || types.includes('date')) return 'datetime';
  const known = types.filter((t) => t !== 'null');
  return known.length > 0 && known.every((t) => t === 'bool') ? 'bool' : 'text';
}

/** Orders text by code point, as DuckDB does. */
function compareText(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
function order(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (isTime(a) && isTime(b)) return a.wall - b.wall;
  return Number(a) - Number(b);
}

function likeRegex(pattern: string): RegExp {
  const body = [...pattern]
    .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'su');
}

const and3 = (a: boolean | null, b: boolean | null) =>
  a === false || b === false ? false : a === null || b === null ? null : true;
const or3 = (a: boolean | null, b: boolean | null) =>
  a === true || b === true ? true : a === null || b === null ? null : false;

function propertyAt(props: Record<string, unknown>, path: string[]): string | null {
  let v: unknown = props;
  for (const k of path) {
    if (Array.isArray(v) && /^\d+$/.test(k)) v = v[Number(k)];
    else if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, k))
      v = (v as Record<string, unknown>)[k];
    else return null;
  }
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const roundHalfAway = (v: number) => Math.sign(v) * Math.round(Math.abs(v));
const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

function startOf(t: Time, unit: 'day' | 'week' | 'month', weekStart: 0 | 1): number {
  const day = Math.floor(t.wall / DAY_MS) * DAY_MS;
  if (unit === 'day') return day;
  const d = new Date(day);
  if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return day - ((d.getUTCDay() - weekStart + 7) % 7) * DAY_MS;
}

function dateDiff(unit: string, a: Time, b: Time): number {
  const span = (ms: number) => Math.floor(b.wall / ms) - Math.floor(a.wall / ms);
  const ymd = (t: Time) => {
    const d = new Date(t.wall);
    return [d.getUTCFullYear(), d.getUTCMonth()] as const;
  };
  switch (unit) {
    case 'second':
      return span(1000);
    case 'minute':
      return span(60_000);
    case 'hour':
      return span(HOUR_MS);
    case 'day':
      return span(DAY_MS);
    case 'week':
      return Math.trunc(span(DAY_MS) / 7);
    case 'month': {
      const [ya, ma] = ymd(a);
      const [yb, mb] = ymd(b);
      return (yb - ya) * 12 + (mb - ma);
    }
    default:
      return ymd(b)[0] - ymd(a)[0];
  }
}

/** The value of `n` for one event (`group`: the events an aggregate reads, in math). */
export function evaluate(n: Node, e: ReferenceEvent, env: RefEnv, group: readonly ReferenceEvent[] = [e]): Value {
  const ev = (m: Node, x: ReferenceEvent = e) => evaluate(m, x, env, group);
  switch (n.kind) {
    case 'number':
    case 'string':
    case 'bool':
      return n.value;
    case 'null':
      return null;
    case 'column':
      if (n.name === 'event') return e.event;
      if (n.name === 'distinct_id') return e.distinct_id;
      if (n.name === 'person_id') return personUuid(e.person_id);
      return { wall: toWall(e.timestamp, env.timeZone), date: false };
    case 'property':
      return propertyAt(n.source === 'person' ? e.person_properties : e.properties, n.path);
    case 'neg': {
      const v = toNumber(ev(n.arg));
      return v === null ? null : -v;
    }
    case 'not': {
      const v = toBool(ev(n.arg));
      return v === null ? null : !v;
    }
    case 'arith': {
      const a = toNumber(ev(n.left));
      const b = toNumber(ev(n.right));
      if (a === null || b === null) return null;
      if ((n.op === '/' || n.op === '%') && b === 0) return null;
      return finite(n.op === '+' ? a + b : n.op === '-' ? a - b : n.op === '*' ? a * b : n.op === '/' ? a / b : a % b);
    }
    case 'logic':
      return (n.op === 'and' ? and3 : or3)(toBool(ev(n.left)), toBool(ev(n.right)));
    case 'compare': {
      if ((n.op === '=' || n.op === '!=') && (n.left.kind === 'null' || n.right.kind === 'null')) {
        const isNull = ev(n.left.kind === 'null' ? n.right : n.left) === null;
        return n.op === '=' ? isNull : !isNull;
      }
      if (n.op.includes('like')) {
        const [a, b] = [toText(ev(n.left)), toText(ev(n.right))];
        if (a === null || b === null) return null;
        const ci = n.op.endsWith('ilike');
        const m = likeRegex(ci ? b.toLowerCase() : b).test(ci ? a.toLowerCase() : a);
        return n.op.startsWith('not') ? !m : m;
      }
      const as = compareAs([typeOf(n.left), typeOf(n.right)]);
      const a = convert(ev(n.left), as);
      const b = convert(ev(n.right), as);
      if (a === null || b === null) return null;
      const c = order(a, b);
      return { '=': c === 0, '!=': c !== 0, '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0 }[n.op as '='];
    }
    case 'in': {
      const as = compareAs([typeOf(n.left), ...n.list.map(typeOf)]);
      const a = convert(ev(n.left), as);
      const items = n.list.map((m) => convert(ev(m), as));
      // Null items never match; a null left side is unknown.
      if (a === null) return null;
      const r = items.some((b) => b !== null && order(a, b) === 0);
      return n.negated ? !r : r;
    }
    case 'call':
      return call(n, e, env, group);
  }
}

function call(
  n: Extract<Node, { kind: 'call' }>,
  e: ReferenceEvent,
  env: RefEnv,
  group: readonly ReferenceEvent[],
): Value {
  const ev = (i: number, x: ReferenceEvent = e) => evaluate(n.args[i]!, x, env, group);
  const text = (i: number) => toText(ev(i));
  const num = (i: number) => toNumber(ev(i));
  const time = (i: number) => toTime(ev(i));
  const literal = (i: number) => (n.args[i] as { value: number }).value;
  const numeric = (i: number, f: (v: number) => number) => {
    const v = num(i);
    return v === null ? null : finite(f(v));
  };
  switch (n.name) {
    case 'if':
    case 'multiIf': {
      const type = typeOf(n);
      for (let i = 0; i + 1 < n.args.length; i += 2) if (toBool(ev(i)) === true) return convert(ev(i + 1), type);
      return convert(ev(n.args.length - 1), type);
    }
    case 'coalesce': {
      const type = typeOf(n);
      for (let i = 0; i < n.args.length; i++) {
        const v = convert(ev(i), type);
        if (v !== null) return v;
      }
      return null;
    }
    case 'lower': {
      const t = text(0);
      return t === null ? null : t.toLowerCase();
    }
    case 'upper': {
      const t = text(0);
      return t === null ? null : t.toUpperCase();
    }
    case 'trim': {
      const t = text(0);
      return t === null ? null : t.replace(/^ +| +$/g, '');
    }
    case 'length': {
      const t = text(0);
      return t === null ? null : [...t].length;
    }
    case 'concat':
      return n.args.map((_, i) => text(i) ?? '').join('');
    case 'toString':
      return text(0);
    case 'substring': {
      const t = text(0);
      if (t === null) return null;
      const from = literal(1) - 1;
      return [...t].slice(from, n.args.length === 3 ? from + literal(2) : undefined).join('');
    }
    case 'toInt':
      return numeric(0, Math.trunc);
    case 'toFloat':
      return num(0);
    case 'round': {
      const m = 10 ** (n.args.length === 2 ? literal(1) : 0);
      return numeric(0, (v) => {
        const r = roundHalfAway(v * m) / m;
        return Number.isFinite(r) ? r : v;
      });
    }
    case 'floor':
      return numeric(0, Math.floor);
    case 'ceil':
      return numeric(0, Math.ceil);
    case 'abs':
      return numeric(0, Math.abs);
    case 'toDate':
    case 'toStartOfDay':
    case 'toStartOfWeek':
    case 'toStartOfMonth': {
      const t = time(0);
      if (t === null) return null;
      const unit = n.name === 'toStartOfWeek' ? 'week' : n.name === 'toStartOfMonth' ? 'month' : 'day';
      return { wall: startOf(t, unit, env.weekStart), date: n.name !== 'toStartOfDay' };
    }
    case 'now':
      return { wall: toWall(env.now, env.timeZone), date: false };
    case 'dateDiff': {
      const [a, b] = [time(1), time(2)];
      return a === null || b === null ? null : dateDiff((n.args[0] as { value: string }).value, a, b);
    }
    case 'count':
      return n.args.length === 0 ? group.length : group.filter((x) => ev(0, x) !== null).length;
    case 'uniq':
      return new Set(
        group
          .map((x) => ev(0, x))
          .filter((v) => v !== null)
          .map((v) => (isTime(v) ? `t${v.wall}` : `${typeof v}:${String(v)}`)),
      ).size;
    default: {
      const values = group.map((x) => toNumber(ev(0, x))).filter((v): v is number => v !== null);
      if (values.length === 0) return null;
      if (n.name === 'sum') return values.reduce((a, b) => a + b, 0);
      if (n.name === 'avg') return values.reduce((a, b) => a + b, 0) / values.length;
      return n.name === 'min' ? Math.min(...values) : Math.max(...values);
    }
  }
}

/** A filter's reading: true only when the condition is true. */
export const holds = (n: Node, e: ReferenceEvent, env: RefEnv) => toBool(evaluate(n, e, env)) === true;

/** A breakdown's value: the result's text, '' read as "None" by the caller. */
export const valueText = (n: Node, e: ReferenceEvent, env: RefEnv) => toText(evaluate(n, e, env));

/** A math's number over a bucket's events (null → 0). */
export const aggregateOf = (n: Node, events: readonly ReferenceEvent[], env: RefEnv): number => {
  const first = events[0];
  const v = first
    ? evaluate(n, first, env, events)
    : evaluate(
        n,
        { uuid: '', event: '', distinct_id: '', person_id: '', timestamp: 0, properties: {}, person_properties: {} },
        env,
        events,
      );
  return toNumber(v) ?? 0;
};
