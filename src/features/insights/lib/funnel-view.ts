import type { FunnelStep } from '@/contract/analytics-results';
import { formatWallTime } from '@/lib/dates';
import { breakdownText } from './trends-view';
import { eventLabel } from './display-names';
import type { FunnelStepView, FunnelView, RetentionView } from './view-types';

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

interface StepInput {
  name: string;
  count: number;
  averageTime: number | null;
  medianTime: number | null;
}

function stepViews(steps: StepInput[]): FunnelStepView[] {
  const first = steps[0]?.count ?? 0;
  return steps.map((step, index) => {
    const previous = index === 0 ? step.count : steps[index - 1]!.count;
    return {
      ...step,
      conversion: ratio(step.count, first),
      fromPrevious: index === 0 ? 1 : ratio(step.count, previous),
      dropped: index === 0 ? 0 : Math.max(0, previous - step.count),
    };
  });
}

const stepName = (step: FunnelStep, index: number) =>
  step.custom_name || (step.name ? eventLabel(step.name) : `Step ${index + 1}`);
const input = (step: FunnelStep, index: number): StepInput => ({
  name: stepName(step, index),
  count: step.count,
  averageTime: step.average_conversion_time,
  medianTime: step.median_conversion_time,
});

/** Funnel steps; with a breakdown (a list of step lists) each value's steps and their sums. */
export function funnelView(result: FunnelStep[] | FunnelStep[][]): FunnelView {
  if (!Array.isArray(result[0])) {
    return { type: 'funnel', steps: stepViews((result as FunnelStep[]).map(input)), groups: null };
  }
  const lists = (result as FunnelStep[][]).filter((steps) => steps.length > 0);
  const groups = lists.map((steps) => {
    const value = steps[0]!.breakdown_value;
    // Several breakdowns: shown joined, named to the persons listing as the API's JSON list.
    return {
      breakdownValue: breakdownText(value) ?? 'None',
      ...(Array.isArray(value) ? { breakdownKey: JSON.stringify(value) } : {}),
      steps: stepViews(steps.map(input)),
    };
  });
  const length = Math.max(0, ...lists.map((steps) => steps.length));
  // The sums: counts add up; an average time is the groups' averages weighted by their converted
  // persons; a median cannot be made from medians, so the whole funnel has none.
  const totals = Array.from({ length }, (_, index): StepInput => {
    const at = lists.map((steps) => steps[index]).filter((step): step is FunnelStep => step !== undefined);
    const timed = at.filter((step) => step.average_conversion_time !== null && step.count > 0);
    const weight = timed.reduce((sum, step) => sum + step.count, 0);
    return {
      name: stepName(at[0]!, index),
      count: at.reduce((sum, step) => sum + step.count, 0),
      averageTime:
        weight > 0 ? timed.reduce((sum, step) => sum + step.average_conversion_time! * step.count, 0) / weight : null,
      medianTime: null,
    };
  });
  return { type: 'funnel', steps: stepViews(totals), groups };
}

type RetentionCohortInput = {
  label: string;
  date: string;
  values: Array<{ count: number }>;
  breakdown_value?: unknown;
};

/** The API's words for the rest of a breakdown, as people read them. */
const BREAKDOWN_WORDS: Record<string, string> = {
  $$_posthog_breakdown_null_$$: 'None',
  $$_posthog_breakdown_other_$$: 'Other',
};

/**
 * Retention cohorts and the curve: per period, the persons still there over the cohorts'
 * first-period persons; broken down, the same per value (rows of one value come together).
 */
export function retentionView(cohorts: RetentionCohortInput[]): RetentionView {
  const periodName = /^(\p{L}[\p{L} ]*?)\s+\d+$/u.exec(cohorts[0]?.label ?? '')?.[1] ?? 'Period';
  // Hourly cohorts show their hour, midnight's too.
  const rowOf = (c: RetentionCohortInput) => ({
    head: formatWallTime(c.date, periodName === 'Hour') ?? c.label,
    counts: c.values.map((v) => v.count),
  });
  const periods = Math.max(0, ...cohorts.map((c) => c.values.length));
  const curveOf = (rows: RetentionView['cohorts']) =>
    Array.from({ length: periods }, (_, period) => {
      const reached = rows.filter((c) => c.counts.length > period);
      const persons = reached.reduce((sum, c) => sum + (c.counts[0] ?? 0), 0);
      // No cohort that reached the period has anyone in it: nothing to average (not 0 %).
      return persons > 0 ? reached.reduce((sum, c) => sum + c.counts[period]!, 0) / persons : null;
    });
  const byValue = new Map<string | null, RetentionView['cohorts']>();
  for (const c of cohorts) {
    // Several breakdowns: their values joined, as trends label them.
    const value = breakdownText(c.breakdown_value);
    const label = value === null ? null : (BREAKDOWN_WORDS[value] ?? value);
    const rows = byValue.get(label) ?? [];
    rows.push(rowOf(c));
    byValue.set(label, rows);
  }
  const groups = [...byValue].map(([label, rows]) => ({ label, cohorts: rows, curve: curveOf(rows) }));
  const first = groups[0] ?? { cohorts: [], curve: curveOf([]) };
  return { type: 'retention', periods, periodName, cohorts: first.cohorts, curve: first.curve, groups };
}
