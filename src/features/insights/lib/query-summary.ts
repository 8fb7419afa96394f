import { OPERATOR_WORDS } from '../components/builder/pickers/filter-model';
import { rangeLabel } from '../components/builder/date-range';
import { eventLabel, mathWords, propertyLabel } from './display-names';
import { formulasWithPath } from '@/contract/analytics-params';

/**
 * A saved insight's query in words, shown above its chart so a reader knows what it counts
 * without opening the builder: its series (or steps), filters, breakdown, range and interval.
 * Reads the insight's `filters` as stored; what it cannot read it leaves out rather than guess.
 */
export interface SummaryLine {
  label: string;
  text: string;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/** The series in the order the query runs them (`order`, else events then actions). */
function series(filters: Rec): Rec[] {
  const all = [
    ...(Array.isArray(filters.events) ? filters.events : []),
    ...(Array.isArray(filters.actions) ? filters.actions : []),
  ].filter(isRec);
  return all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => Number(a.e.order ?? a.i) - Number(b.e.order ?? b.i))
    .map(({ e }) => e);
}

function entityText(e: Rec, withMath: boolean): string {
  const custom = str(e.custom_name);
  const name =
    custom ?? (e.type === 'actions' ? (str(e.name) ?? `Action ${String(e.id)}`) : eventLabel(str(e.name) ?? str(e.id)));
  const math = withMath ? mathWords(str(e.math), str(e.math_property), str(e.math_hogql)) : null;
  const own = filtersText(e.properties);
  return [math ? `${name} (${math})` : name, own ? `where ${own}` : null].filter(Boolean).join(' ');
}

const valueText = (v: unknown): string =>
  Array.isArray(v) ? v.map(valueText).join(' or ') : v === null || v === undefined ? '' : `“${String(v)}”`;

function filterText(f: Rec): string | null {
  const key = str(f.key);
  if (!key) return null;
  if (f.type === 'hogql') return key;
  if (f.type === 'cohort') return `${f.operator === 'not_in' ? 'not in' : 'in'} cohort ${String(f.value)}`;
  const operator = str(f.operator) ?? 'exact';
  const words = (OPERATOR_WORDS as Record<string, string>)[operator] ?? operator;
  const owner = f.type === 'person' ? 'person ' : f.type === 'session' ? 'session ' : '';
  const value = f.value === undefined ? '' : ` ${valueText(f.value)}`;
  return `${owner}${propertyLabel(key)} ${words}${value}`;
}

/** A property filter list or group (AND / OR, nested) in words; null when it constrains nothing. */
export function filtersText(properties: unknown): string | null {
  if (Array.isArray(properties)) {
    const parts = properties
      .filter(isRec)
      .map((p) => (Array.isArray(p.values) ? filtersText(p) : filterText(p)))
      .filter((t): t is string => !!t);
    return parts.length ? parts.join(' and ') : null;
  }
  if (!isRec(properties) || !Array.isArray(properties.values)) return null;
  const joiner = properties.type === 'OR' ? ' or ' : ' and ';
  const parts = properties.values
    .filter(isRec)
    .map((v) => (Array.isArray(v.values) ? filtersText(v) : filterText(v)))
    .filter((t): t is string => !!t);
  if (parts.length === 0) return null;
  const text = parts.join(joiner);
  return parts.length > 1 && properties.type === 'OR' ? `(${text})` : text;
}

function breakdownText(filters: Rec): string | null {
  // Several breakdowns: each as one breakdown of its type would read, joined.
  if (Array.isArray(filters.breakdowns) && filters.breakdowns.length > 0) {
    return filters.breakdowns
      .map((e: unknown) => (isRec(e) ? breakdownText({ breakdown: e.property, breakdown_type: e.type }) : null))
      .filter((t) => t !== null)
      .join(' · ');
  }
  const b = filters.breakdown;
  if (b === undefined || b === null || b === '' || (Array.isArray(b) && b.length === 0)) return null;
  const values = Array.isArray(b) ? b.map(String) : [String(b)];
  switch (filters.breakdown_type) {
    case 'cohort':
      return `Cohort: ${values.map((v) => (v === 'all' ? 'all users' : `cohort ${v}`)).join(', ')}`;
    case 'hogql':
      return values.join(', ');
    case 'person':
      return `Person ${values.map(propertyLabel).join(', ')}`;
    case 'session':
      return `Session ${values.map(propertyLabel).join(', ')}`;
    default:
      return values.map(propertyLabel).join(', ');
  }
}

const INTERVAL_WORDS: Record<string, string> = { hour: 'Hourly', day: 'Daily', week: 'Weekly', month: 'Monthly' };

export function querySummary(filters: unknown): SummaryLine[] {
  if (!isRec(filters)) return [];
  const kind = str(filters.insight) ?? 'TRENDS';
  const lines: SummaryLine[] = [];
  const add = (label: string, text: string | null | undefined) => {
    if (text) lines.push({ label, text });
  };
  if (kind === 'RETENTION') {
    add('Start', isRec(filters.target_entity) ? entityText(filters.target_entity, false) : null);
    add('Return', isRec(filters.returning_entity) ? entityText(filters.returning_entity, false) : null);
  } else if (kind === 'PATHS') {
    add(
      'Paths',
      [
        str(filters.start_point) && `starting at ${String(filters.start_point)}`,
        str(filters.end_point) && `ending at ${String(filters.end_point)}`,
      ]
        .filter(Boolean)
        .join(', ') || 'All paths',
    );
  } else {
    const items = series(filters);
    add(
      kind === 'FUNNELS' ? 'Steps' : 'Series',
      items.map((e) => entityText(e, kind !== 'FUNNELS')).join(kind === 'FUNNELS' ? ' → ' : '; '),
    );
    if (kind === 'TRENDS') {
      const formulas = formulasWithPath({
        formula: str(filters.formula),
        formulas: Array.isArray(filters.formulas) ? filters.formulas.map(String) : null,
      });
      add(formulas.length > 1 ? 'Formulas' : 'Formula', formulas.map((f) => f.text).join('; '));
    }
  }
  add(
    'Filters',
    [filtersText(filters.properties), filters.filter_test_accounts === true ? 'internal and test users excluded' : null]
      .filter(Boolean)
      .join('; '),
  );
  add('Breakdown', breakdownText(filters));
  const range = rangeLabel({ date_from: str(filters.date_from), date_to: str(filters.date_to) });
  const interval =
    kind === 'TRENDS' || (kind === 'FUNNELS' && filters.funnel_viz_type === 'trends')
      ? INTERVAL_WORDS[str(filters.interval) ?? 'day']
      : null;
  add('Range', interval ? `${range}, ${interval.toLowerCase()}` : range);
  return lines;
}
