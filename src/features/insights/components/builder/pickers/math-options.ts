import { PROPERTY_MATHS, type MathType } from '@/contract/analytics-params';

/** What a trend series counts, in words; property maths read "… of a property". */
export const MATH_WORDS: Record<MathType, string> = {
  total: 'Total count',
  dau: 'Unique users',
  weekly_active: 'Weekly active users',
  monthly_active: 'Monthly active users',
  unique_session: 'Unique sessions',
  sum: 'Sum of a property',
  avg: 'Average of a property',
  min: 'Minimum of a property',
  max: 'Maximum of a property',
  median: 'Median of a property',
  p90: '90th percentile of a property',
  p95: '95th percentile of a property',
  p99: '99th percentile of a property',
};

export const COUNT_MATHS = (Object.keys(MATH_WORDS) as MathType[]).filter((m) => !PROPERTY_MATHS.includes(m));
export { PROPERTY_MATHS };

export const isPropertyMath = (m: unknown): boolean => PROPERTY_MATHS.includes(m as MathType);
