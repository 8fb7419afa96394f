import type { EntityInput } from '@/contract/analytics-params';
import { eventLabel } from './pickers/labels';

/** The steps in funnel order (`order` when given, else as listed). */
export function orderedSteps(events: readonly unknown[] | undefined): EntityInput[] {
  return ((events ?? []) as readonly EntityInput[])
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.order ?? a.i) - (b.e.order ?? b.i) || a.i - b.i)
    .map(({ e }) => e);
}

/** "Step 1: Pageview" — how the exclusion's range names a step. */
export function stepLabel(step: EntityInput, index: number): string {
  return `Step ${index + 1}: ${stepName(step)}`;
}

/** A step's name alone ("Pageview"), for titles. */
export function stepName(step: EntityInput): string {
  const name = step.custom_name || step.name || (step.id === null ? null : String(step.id));
  return name === null ? 'All events' : eventLabel(name);
}
