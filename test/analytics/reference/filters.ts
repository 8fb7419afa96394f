import type { AnalyticsProject, ReferenceEvent } from '../../../server/analytics/types.ts';

/**
 * Property filters in plain TypeScript: the obviously-correct reading of the rules documented in
 * server/analytics/filters.ts. A property's value is its text (strings as they are, numbers
 * and booleans as JSON text); missing and null are "not set".
 */

export interface RefFilter { key: string; value?: unknown; operator: string; type: 'event' | 'person' | string }
export interface RefGroup { type: 'AND' | 'OR'; values: Array<RefFilter | RefGroup> }

/** The text of a property, or null when it is not set. */
export function textOf(properties: Record<string, unknown>, key: string): string | null {
  if (!Object.prototype.hasOwnProperty.call(properties, key)) return null;
  const v = properties[key];
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The number of a property: a JSON number or numeric text; else null. */
export function numberOf(properties: Record<string, unknown>, key: string): number | null {
  const t = textOf(properties, key);
  if (t === null) return null;
  if (!/^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(t)) return null;
  return Number(t);
}

const valueText = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

export function matchesFilter(event: ReferenceEvent, f: RefFilter): boolean {
  const props = f.type === 'person' ? event.person_properties : event.properties;
  const text = textOf(props, f.key);
  const values = list(f.value).map(valueText);
  switch (f.operator) {
    case 'exact': return text !== null && values.includes(text);
    case 'is_not': return text === null || !values.includes(text);
    case 'icontains': return text !== null && values.some((v) => text.toLowerCase().includes(v.toLowerCase()));
    case 'not_icontains': return text === null || !values.some((v) => text.toLowerCase().includes(v.toLowerCase()));
    case 'regex': return text !== null && values.some((v) => new RegExp(v).test(text));
    case 'not_regex': return text === null || !values.some((v) => new RegExp(v).test(text));
    case 'gt': { const n = numberOf(props, f.key); return n !== null && n > Number(values[0]); }
    case 'lt': { const n = numberOf(props, f.key); return n !== null && n < Number(values[0]); }
    case 'is_set': return text !== null;
    case 'is_not_set': return text === null;
    default: return false;
  }
}

export function matchesGroup(event: ReferenceEvent, group: RefGroup | undefined | null): boolean {
  if (!group || group.values.length === 0) return true;
  const results = group.values.map((v) => ('values' in v ? matchesGroup(event, v) : matchesFilter(event, v)));
  return group.type === 'OR' ? results.some(Boolean) : results.every(Boolean);
}

export function matchesTestAccounts(event: ReferenceEvent, project: AnalyticsProject, enabled: boolean | undefined): boolean {
  if (!enabled) return true;
  return project.test_account_filters.every((f) => matchesFilter(event, f));
}
