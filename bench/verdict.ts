// One way to judge a figure against its target, for every report of the bench.

/** A verdict with its margin: how far above or below the target the figure is, in the target's own unit. */
export function judge(value: number, target: number, atLeast: boolean, unit: (x: number) => string): string {
  const met = atLeast ? value >= target : value <= target;
  const margin = Math.abs(value - target);
  const side = met ? (atLeast ? 'above' : 'under') : atLeast ? 'short' : 'over';
  return `${met ? 'met' : 'NOT met'}, ${unit(margin)} ${side}`;
}
