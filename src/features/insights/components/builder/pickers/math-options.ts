import { isPropertyMath, PROPERTY_MATHS, type MathType, type PropertyMath } from '@/contract/analytics-params';
import { PROPERTY_MATH_WORDS } from '../../../lib/display-names';
import type { ActorWords } from '../../../lib/actor-words';

/** What a trend series counts, in words; property maths read "… of a property". */
export const MATH_WORDS: Record<MathType, string> = {
  total: 'Total count',
  dau: 'Unique users',
  weekly_active: 'Weekly active users',
  monthly_active: 'Monthly active users',
  unique_session: 'Unique sessions',
  ...(Object.fromEntries(PROPERTY_MATHS.map((math) => [math, `${PROPERTY_MATH_WORDS[math]} of a property`])) as Record<
    PropertyMath,
    string
  >),
  hogql: 'HogQL expression',
};

/** A math's words in the picker; by a group type, unique and active counts count its groups ("Unique companies"). */
export function mathLabel(math: MathType, actors: ActorWords): string {
  if (!actors.groups) return MATH_WORDS[math];
  if (math === 'dau') return `Unique ${actors.many}`;
  if (math === 'weekly_active') return `Weekly active ${actors.many}`;
  if (math === 'monthly_active') return `Monthly active ${actors.many}`;
  return MATH_WORDS[math];
}

/** The maths that need nothing else (a HogQL math is offered apart, with its expression). */
export const COUNT_MATHS = (Object.keys(MATH_WORDS) as MathType[]).filter((m) => !isPropertyMath(m) && m !== 'hogql');
export { isPropertyMath, PROPERTY_MATHS };
