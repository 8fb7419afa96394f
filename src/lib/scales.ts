/** Axis arithmetic of the time-series chart: nice ticks and which x labels fit. */

/** About `count` round ticks (1, 2, 5 × 10^k steps) covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0];
  if (max === min) max = min + 1;
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let tick = first; tick < max + step * 0.999; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

/** Every how many labels one is shown so that labels of `labelWidth` px keep `gap` px apart. */
export function labelEvery(count: number, plotWidth: number, labelWidth: number, gap = 24): number {
  if (count <= 1 || plotWidth <= 0) return 1;
  return Math.max(1, Math.ceil((count * (labelWidth + gap)) / plotWidth));
}
