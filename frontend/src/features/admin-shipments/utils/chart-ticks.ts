/** The scale's top and its ticks: a few round steps (1, 2, 5, 10, 20, 50…) from 0 up to at least the largest value. */
export function chartTicks(max: number): number[] {
  const rough = Math.max(1, Math.ceil(max / 4));
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= rough)!;
  const top = Math.max(step, Math.ceil(max / step) * step);
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}
