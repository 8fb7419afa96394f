import { preloadable } from '@/lib/preloadable';

/** The displays drawn with recharts (pie, value bars, time to convert, retention, paths): their own chunk, preloadable. */
export const rechartsChart = preloadable(() => import('./recharts-chart'));
