import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelCorrelationParamsSchema, type FunnelCorrelationParamsInput } from '../../src/contract/index.ts';
import { computeFunnelCorrelation } from '../../server/analytics/engines/correlation.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Correlation numbers checked against a plain-TypeScript computation on generated events:
 * persons who entered `sign up` in the range, converted when `purchase` follows within 14 days;
 * for every other event (or plan value) the persons having it among successes and failures.
 */

const FROM = Date.UTC(2024, 2, 1);
const TO = Date.UTC(2024, 2, 29);
const OTHER = ['$pageview', 'invite sent', 'it\'s "odd"', 'help opened', 'ünï 名前'];
const PLANS = ['free', 'pro', "'; DROP TABLE events; --"];

/** A small deterministic generator (mulberry32). */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(seed: number): ReferenceEvent[] {
  const r = prng(seed);
  const events: ReferenceEvent[] = [];
  for (let p = 0; p < 120; p++) {
    const person = `person-${p}`;
    const props = { plan: PLANS[Math.floor(r() * PLANS.length)]! };
    const used = new Set<number>();
    const at = () => {
      let m: number;
      do m = Math.floor(r() * ((TO - FROM) / 60_000 - 10));
      while (used.has(m));
      used.add(m);
      return FROM + m * 60_000;
    };
    const add = (event: string) =>
      events.push({
        uuid: `00000000-0000-4000-8000-${String(events.length).padStart(12, '0')}`,
        event,
        distinct_id: person,
        person_id: person,
        timestamp: at(),
        properties: {},
        person_properties: props,
      });
    if (r() < 0.8) add('sign up');
    if (r() < 0.5) add('purchase');
    if (r() < 0.2) add('purchase');
    for (const name of OTHER) if (r() < (props.plan === 'pro' && name === 'invite sent' ? 0.8 : 0.35)) add(name);
  }
  return events;
}

function reference(events: ReferenceEvent[], by: 'events' | 'plan') {
  const persons = new Map<string, ReferenceEvent[]>();
  for (const e of events) persons.set(e.person_id, [...(persons.get(e.person_id) ?? []), e]);
  let S = 0;
  let F = 0;
  const counts = new Map<string, { s: number; f: number }>();
  for (const list of persons.values()) {
    const sorted = [...list].sort((a, b) => a.timestamp - b.timestamp);
    const signups = sorted.filter((e) => e.event === 'sign up');
    if (signups.length === 0) continue;
    const success = signups.some((s) =>
      sorted.some(
        (e) => e.event === 'purchase' && e.timestamp > s.timestamp && e.timestamp - s.timestamp <= 14 * 86_400_000,
      ),
    );
    if (success) S++;
    else F++;
    const names =
      by === 'events'
        ? new Set(sorted.map((e) => e.event).filter((n) => n !== 'sign up' && n !== 'purchase'))
        : new Set([`plan::${String(sorted[0]!.person_properties.plan)}`]);
    for (const n of names) {
      const c = counts.get(n) ?? { s: 0, f: 0 };
      if (success) c.s++;
      else c.f++;
      counts.set(n, c);
    }
  }
  const odds = (s: number, f: number) => (s + 1) / (S - s + 1) / ((f + 1) / (F - f + 1));
  return { S, F, entries: [...counts].map(([name, c]) => ({ name, ...c, odds: odds(c.s, c.f) })) };
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const params = (extra: Partial<FunnelCorrelationParamsInput> = {}) =>
  funnelCorrelationParamsSchema.parse({
    events: [
      { id: 'sign up', order: 0 },
      { id: 'purchase', order: 1 },
    ],
    date_from: '2024-03-01',
    date_to: '2024-03-29',
    funnel_window_interval: 14,
    funnel_window_interval_unit: 'day',
    ...extra,
  });

describe('funnel correlation', () => {
  it.each([1, 2, 3])('matches the plain computation for events and for a person property (seed %i)', async (seed) => {
    const events = generate(seed);
    await h.load(events);
    for (const by of ['events', 'plan'] as const) {
      const ref = reference(events, by);
      const got = await computeFunnelCorrelation(
        by === 'events'
          ? params()
          : params({ funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'] }),
        h.ctx,
      );
      const expected = ref.entries.filter((e) => e.odds !== 1);
      expect(got.events.length).toBeGreaterThan(by === 'events' ? 2 : 1);
      expect(got.events.map((e) => e.event.event).sort()).toEqual(expected.map((e) => e.name).sort());
      for (const e of got.events) {
        const r = expected.find((x) => x.name === e.event.event)!;
        expect([e.success_count, e.failure_count], e.event.event).toEqual([r.s, r.f]);
        expect(e.odds_ratio).toBeCloseTo(r.odds, 10);
        expect(e.correlation_type).toBe(r.odds > 1 ? 'success' : 'failure');
      }
      const ratios = got.events.map((e) => e.odds_ratio);
      const successes = ratios.filter((x) => x > 1);
      expect(successes).toEqual([...successes].sort((a, b) => b - a));
      expect(got.skewed).toBe(Math.min(ref.S, ref.F) * 10 < Math.max(ref.S, ref.F));
    }
  });

  it('leaves out excluded event names', async () => {
    await h.load(generate(4));
    const got = await computeFunnelCorrelation(
      params({ funnel_correlation_exclude_event_names: ['$pageview', 'invite sent'] }),
      h.ctx,
    );
    expect(got.events.map((e) => e.event.event)).not.toContain('$pageview');
    expect(got.events.map((e) => e.event.event)).not.toContain('invite sent');
  });
});
