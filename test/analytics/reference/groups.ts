import type { ReferenceEvent } from '../../../server/analytics/types.ts';
import { propertyTextOf as textOf } from '../../../server/analytics/query/properties.ts';

/**
 * Groups in plain TypeScript (docs/api.md, "Groups"): an event's `$groups` maps a type to a key;
 * types are numbered 0–4 by the time of their first event (ties: by name); a group's properties
 * are the `$group_set`s of its `$groupidentify` events, merged in time order (then uuid).
 */

export interface RefGroups {
  types: string[];
  /** JSON of [type index, key] → the group's properties. */
  properties: Map<string, Record<string, unknown>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The groups an event names: its `$groups` entries (text keys, empty ones skipped) and the group it identifies. */
function namedGroups(e: ReferenceEvent): { type: string; key: string }[] {
  const out: { type: string; key: string }[] = [];
  const groups = e.properties.$groups;
  if (isObject(groups)) {
    for (const type of Object.keys(groups)) {
      const key = textOf(groups, type);
      if (key) out.push({ type, key });
    }
  }
  if (e.event === '$groupidentify') {
    const type = textOf(e.properties, '$group_type');
    const key = textOf(e.properties, '$group_key');
    if (type && key) out.push({ type, key });
  }
  return out;
}

const byTimeThenUuid = (a: ReferenceEvent, b: ReferenceEvent) =>
  a.timestamp - b.timestamp || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

export function referenceGroups(events: readonly ReferenceEvent[]): RefGroups {
  const first = new Map<string, number>();
  for (const e of events)
    for (const g of namedGroups(e)) first.set(g.type, Math.min(first.get(g.type) ?? Infinity, e.timestamp));
  const types = [...first]
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, 5)
    .map(([t]) => t);
  const properties = new Map<string, Record<string, unknown>>();
  for (const e of [...events].sort(byTimeThenUuid)) {
    if (e.event !== '$groupidentify') continue;
    const type = textOf(e.properties, '$group_type');
    const key = textOf(e.properties, '$group_key');
    const index = type ? types.indexOf(type) : -1;
    if (index < 0 || !key) continue;
    const id = JSON.stringify([index, key]);
    const props = properties.get(id) ?? {};
    if (isObject(e.properties.$group_set)) Object.assign(props, e.properties.$group_set);
    properties.set(id, props);
  }
  return { types, properties };
}

/** The key of the event's group of type `index`, or null. */
export function groupKeyOf(e: ReferenceEvent, groups: RefGroups, index: number): string | null {
  const type = groups.types[index];
  const named = e.properties.$groups;
  if (type === undefined || !isObject(named)) return null;
  const key = textOf(named, type);
  return key ? key : null;
}

/** The properties of the event's group of type `index` ({} without one, or before it is identified). */
export function groupPropertiesOf(e: ReferenceEvent, groups: RefGroups, index: number): Record<string, unknown> {
  const key = groupKeyOf(e, groups, index);
  return key === null ? {} : (groups.properties.get(JSON.stringify([index, key])) ?? {});
}

/** The events as an analysis aggregated by group type `index` sees them: those with such a group, counted as it. */
export function byGroup(events: readonly ReferenceEvent[], groups: RefGroups, index: number): ReferenceEvent[] {
  return events.flatMap((e) => {
    const key = groupKeyOf(e, groups, index);
    return key === null ? [] : [{ ...e, actor: `group:${key}` }];
  });
}

/** What an analysis counts an event for: its group (after {@link byGroup}), else its person. */
export const actorOf = (e: ReferenceEvent): string => e.actor ?? e.person_id;
