import type { ReferenceEvent } from '../../../server/analytics/types.ts';
import { numberText } from './hogql.ts';
import { propertyTextOf as textOf } from '../../../server/analytics/query/properties.ts';

/**
 * Session properties in plain TypeScript (rules in server/analytics/query/sessions.ts): a session is
 * every event with the same non-empty `$session_id` text, over the whole event set.
 */
export interface RefSession {
  duration: number;
  entry: string | null;
  exit: string | null;
  pageviews: number;
}

export function sessionsOf(events: readonly ReferenceEvent[]): Map<string, RefSession> {
  const byId = new Map<string, ReferenceEvent[]>();
  for (const e of events) {
    const sid = textOf(e.properties, '$session_id');
    if (sid === null || sid === '') continue;
    byId.set(sid, [...(byId.get(sid) ?? []), e]);
  }
  const out = new Map<string, RefSession>();
  for (const [sid, list] of byId) {
    const sorted = [...list].sort(
      (a, b) => a.timestamp - b.timestamp || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0),
    );
    const urls = sorted.map((e) => textOf(e.properties, '$current_url')).filter((u): u is string => u !== null);
    out.set(sid, {
      duration: (sorted[sorted.length - 1]!.timestamp - sorted[0]!.timestamp) / 1000,
      entry: urls[0] ?? null,
      exit: urls[urls.length - 1] ?? null,
      pageviews: sorted.filter((e) => e.event === '$pageview').length,
    });
  }
  return out;
}

/** The event's session, or null without one. */
export function sessionOf(sessions: Map<string, RefSession>, e: ReferenceEvent): RefSession | null {
  const sid = textOf(e.properties, '$session_id');
  return sid === null || sid === '' ? null : (sessions.get(sid) ?? null);
}

/** A session property as text (null: not set). */
export function sessionText(s: RefSession, key: string): string | null {
  switch (key) {
    case '$session_duration':
      return numberText(s.duration);
    case '$pageview_count':
      return numberText(s.pageviews);
    case '$entry_current_url':
      return s.entry;
    case '$exit_current_url':
      return s.exit;
    default:
      return null;
  }
}
