import { AnalyticsParamError } from '../errors.ts';
import { hogqlTextSql } from '../hogql/index.ts';
import { DEFAULT_COLUMNS, propertyText, SqlParams, type PropertyColumns } from './properties.ts';
import { isSessionProperty, SESSION_PROPERTIES, sessionTextSql } from './sessions.ts';
import { checkGroupType, groupPropertyText } from './groups.ts';
import type { BreakdownEntry } from '../../../src/contract/analytics.ts';
import { BREAKDOWN_NULL_VALUE, BREAKDOWN_OTHER_VALUE } from '../engines/trends-types.ts';

/**
 * The breakdowns trends, funnels and retention support: an event or person property, a session property
 * (sessions.ts), a HogQL expression (docs/hogql.md) or a property of the event's group of type
 * `breakdown_group_type_index` (groups.ts), each read as text per event.
 */
export interface BreakdownSpec {
  key: string;
  type: 'event' | 'person' | 'session' | 'hogql' | 'group';
  /** The group type (`type: group`). */
  groupIndex?: number;
}

const SUPPORTED = ['event', 'person', 'session', 'hogql', 'group'] as const;

/** The fields an entry's errors name (`breakdown`, or `breakdowns__1__property`). */
interface PartAttrs {
  key: string;
  type: string;
  groupIndex: string;
}
const SINGLE_ATTRS: PartAttrs = { key: 'breakdown', type: 'breakdown_type', groupIndex: 'breakdown_group_type_index' };

/** One breakdown, checked: a 400 naming `attrs` when its type, key or group type is not usable. */
function partOf(
  key: unknown,
  typeName: string,
  groupIndex: number | null | undefined,
  attrs: PartAttrs,
  groupTypes: readonly string[],
): BreakdownSpec {
  const type = SUPPORTED.find((t) => t === typeName);
  if (!type)
    throw new AnalyticsParamError(
      attrs.type,
      `Breakdown by ${typeName} is not supported: use event, person, session, group or hogql.`,
    );
  if (typeof key !== 'string') {
    throw new AnalyticsParamError(
      attrs.key,
      type === 'hogql' ? 'Enter a HogQL expression.' : 'Enter the name of a property.',
    );
  }
  const spec: BreakdownSpec = { key, type };
  if (type === 'group') {
    checkGroupType(groupIndex, attrs.groupIndex, groupTypes);
    spec.groupIndex = groupIndex!;
  }
  if (type === 'session' && !isSessionProperty(spec.key)) {
    throw new AnalyticsParamError(
      attrs.key,
      `"${spec.key}" is not a session property: use ${SESSION_PROPERTIES.join(', ')}.`,
    );
  }
  // Compiled once here so that an expression outside the subset is a 400 before any SQL runs.
  if (type === 'hogql') hogqlTextSql(spec.key, new SqlParams(), attrs.key);
  return spec;
}

/**
 * The request's breakdown, checked (a 400 on `breakdown_type`, `breakdown` or
 * `breakdown_group_type_index`, which must be one of the project's `groupTypes`); null without one.
 */
export function breakdownOf(
  p: { breakdown?: unknown; breakdown_type: string; breakdown_group_type_index?: number | null | undefined },
  groupTypes: readonly string[] = [],
): BreakdownSpec | null {
  if (p.breakdown === null || p.breakdown === undefined) return null;
  return partOf(p.breakdown, p.breakdown_type, p.breakdown_group_type_index, SINGLE_ATTRS, groupTypes);
}

/** One part of a {@link Breakdown}: a value per event, split into bins when `bins` is set. */
export interface BreakdownPart extends BreakdownSpec {
  /** Bins asked for (numeric values only). */
  bins?: number;
  /** The bins' edges once the values' range is known ({@link histogramEdges}). */
  edges?: number[];
}

/**
 * What a trend, funnel or retention breaks down by: one part (`breakdown`), or up to three (`breakdowns`),
 * whose value is then the list of the parts' values (docs/api.md, "Breakdowns").
 */
export interface Breakdown {
  parts: BreakdownPart[];
  multi: boolean;
}

type BreakdownParams = Parameters<typeof breakdownOf>[0] & {
  breakdown_histogram_bin_count?: number | null | undefined;
  breakdowns?: readonly BreakdownEntry[] | null | undefined;
};

/** The request's `breakdown` or `breakdowns`, checked (400s as {@link breakdownOf}); null without either. */
export function breakdownsOf(p: BreakdownParams, groupTypes: readonly string[] = []): Breakdown | null {
  if (p.breakdowns && p.breakdowns.length > 0) {
    const parts = p.breakdowns.map((b, i): BreakdownPart => {
      const at = (field: string) => `breakdowns__${i}__${field}`;
      const part: BreakdownPart = partOf(
        b.property,
        b.type,
        b.group_type_index,
        { key: at('property'), type: at('type'), groupIndex: at('group_type_index') },
        groupTypes,
      );
      if (b.histogram_bin_count) part.bins = b.histogram_bin_count;
      return part;
    });
    return { parts, multi: true };
  }
  const single: BreakdownPart | null = breakdownOf(p, groupTypes);
  if (!single) return null;
  if (p.breakdown_histogram_bin_count) single.bins = p.breakdown_histogram_bin_count;
  return { parts: [single], multi: false };
}

/**
 * Equal-width bin edges over [min, max], on whole hundredths as the production service floors
 * them: the first edge at or below min, the last one hundredth above max's, so that every value
 * in range falls in one half-open bin [edge i, edge i+1). Edges that round together merge.
 */
export function histogramEdges(min: number, max: number, bins: number): number[] {
  const cents = (x: number) => Math.floor(x * 100 + 1e-9);
  const lo = cents(min);
  const hi = cents(max) + 1;
  const edges: number[] = [];
  for (let i = 0; i <= bins; i += 1) {
    const c = i === bins ? hi : Math.max(lo, cents(min + ((max - min) * i) / bins));
    if (edges.length === 0 || c > edges[edges.length - 1]!) edges.push(c);
  }
  if (edges.length === 1) edges.push(hi);
  return edges.map((c) => c / 100);
}

/** The breakdown's parts without their bins, as a list: the raw values a binned part's numbers are read from. */
export function rawBreakdown(b: Breakdown): Breakdown {
  return {
    parts: b.parts.map(({ key, type, groupIndex }) => ({
      key,
      type,
      ...(groupIndex === undefined ? {} : { groupIndex }),
    })),
    multi: true,
  };
}

/**
 * SQL: the range of each binned part (`lo<i>`, `hi<i>`: the least and greatest finite number)
 * over `rows`, whose column `list` is {@link rawBreakdown}'s value.
 */
export function binRangeSql(b: Breakdown, list: string, rows: string): string {
  const binned = b.parts.flatMap((p, i) => (p.bins ? [i] : []));
  return `
    SELECT ${binned.map((i) => `min(n${i}) FILTER (WHERE isfinite(n${i})) AS lo${i}, max(n${i}) FILTER (WHERE isfinite(n${i})) AS hi${i}`).join(', ')}
    FROM (
      SELECT ${binned.map((i) => `${breakdownNumberSql(`(${list})[${i + 1}]`)} AS n${i}`).join(', ')}
      ${rows}
    )`;
}

/** The breakdown with each binned part's edges, from {@link binRangeSql}'s row (no numbers: no bins). */
export function withEdges(b: Breakdown, row: Record<string, number | null> | undefined): Breakdown {
  const parts = b.parts.map((p, i): BreakdownPart => {
    if (!p.bins) return p;
    const lo = row?.[`lo${i}`];
    const hi = row?.[`hi${i}`];
    return {
      ...p,
      edges:
        lo === null || lo === undefined || hi === null || hi === undefined
          ? []
          : histogramEdges(Number(lo), Number(hi), p.bins),
    };
  });
  return { ...b, parts };
}

/** A number as Python prints a float (`10.0`, `2.5`): how the production service labels bins. */
const pyFloat = (n: number) => (Number.isInteger(n) && Math.abs(n) < 1e16 ? n.toFixed(1) : String(n));

/** The breakdown value of bin [lo, hi): `[10.0,20.0]`. */
export const binLabel = (lo: number, hi: number) => `[${pyFloat(lo)},${pyFloat(hi)}]`;

/** SQL: the number a breakdown's text reads as, else NULL (infinities and NaN fall in no bin). */
export const breakdownNumberSql = (text: string) => `TRY_CAST(${text} AS DOUBLE)`;

/**
 * SQL: the label of the bin holding `num`, NULL outside every bin (and for NULL). `num` repeats
 * in each branch; measured on 1M events, 100 bins cost half again a plain breakdown, and reading
 * `num` once through a one-item list's lambda was slower still.
 */
function binSql(num: string, edges: readonly number[], params: SqlParams): string {
  const branches = edges
    .slice(1)
    .map((hi, i) => `WHEN ${num} < ${params.add(hi)}::DOUBLE THEN ${params.add(binLabel(edges[i]!, hi))}`);
  return `CASE WHEN ${num} < ${params.add(edges[0])}::DOUBLE THEN NULL ${branches.join(' ')} END`;
}

/**
 * SQL of a breakdown's value for the events `e` of a statement: text (NULL when missing) for
 * one part; for several, a VARCHAR[] with the production service's None value in place of a
 * missing part, which groups, ranks (element by element) and compares as one value.
 */
export function breakdownSql(b: Breakdown, params: SqlParams, cols: PropertyColumns = DEFAULT_COLUMNS): BreakdownSql {
  const parts = b.parts.map((part): BreakdownSql => {
    // No numbers seen, no bins: every value is None (and the property is not read at all).
    if (part.edges && part.edges.length < 2) return { sql: 'NULL::VARCHAR', person: false, session: false };
    const v = breakdownValueSql(part, params, cols);
    const text = `nullif(${v.sql}, '')`;
    return { ...v, sql: part.edges ? binSql(breakdownNumberSql(text), part.edges, params) : text };
  });
  const person = parts.some((x) => x.person);
  const session = parts.some((x) => x.session);
  if (!b.multi) return { sql: parts[0]!.sql, person, session };
  const none = params.add(BREAKDOWN_NULL_VALUE);
  return { sql: `[${parts.map((x) => `coalesce(${x.sql}, ${none})`).join(', ')}]::VARCHAR[]`, person, session };
}

/** What a breakdown's SQL needs joined: persons (`p`, and the overrides) or sessions (`ses`). */
export interface BreakdownSql {
  /** VARCHAR; NULL when the event has no value. */
  sql: string;
  person: boolean;
  session: boolean;
}

/** SQL text of the breakdown's value for the events `e` of a statement. */
export function breakdownValueSql(
  b: BreakdownSpec,
  params: SqlParams,
  cols: PropertyColumns = DEFAULT_COLUMNS,
): BreakdownSql {
  switch (b.type) {
    case 'event':
    case 'person':
      return { sql: propertyText(params, b.type, b.key, cols), person: b.type === 'person', session: false };
    case 'group':
      return { sql: groupPropertyText(params, b.groupIndex ?? 0, b.key), person: false, session: false };
    case 'session':
      return {
        sql: isSessionProperty(b.key) ? sessionTextSql(b.key, params) : 'NULL::VARCHAR',
        person: false,
        session: true,
      };
    case 'hogql': {
      const c = hogqlTextSql(b.key, params, 'breakdown');
      return { sql: c.sql, person: c.person || c.personKey, session: false };
    }
  }
}

/**
 * Funnels group their persons by a text: several breakdowns' values (breakdownSql's list) joined
 * by the unit separator, which sorts below any printable character, so that joined texts order
 * as their lists do.
 */
export const PARTS_SEPARATOR = '\u001f';

export function joinedBreakdownSql(b: Breakdown, params: SqlParams): BreakdownSql {
  const list = breakdownSql(b, params);
  return { ...list, sql: `array_to_string(${list.sql}, ${params.add(PARTS_SEPARATOR)})` };
}

/**
 * A funnel group's `breakdown_value`: its text, or with `parts` breakdowns the list of their
 * values ("Other", `kind` 1, is the production service's Other value once per part).
 */
export function groupValue(grp: string, kind: number, parts: number): string | string[] {
  if (parts === 0) return grp;
  return kind === 1 ? Array.from({ length: parts }, () => BREAKDOWN_OTHER_VALUE) : grp.split(PARTS_SEPARATOR);
}

/** The group a persons listing's `funnel_step_breakdown` names: a JSON list of the parts' values (or its joined text). */
export function groupOfValue(value: string, parts: number): string {
  if (parts === 0 || !value.startsWith('[')) return value;
  try {
    const list = JSON.parse(value) as unknown;
    if (!Array.isArray(list)) return value;
    return list.every((v) => v === BREAKDOWN_OTHER_VALUE) ? 'Other' : list.map(String).join(PARTS_SEPARATOR);
  } catch {
    return value;
  }
}
