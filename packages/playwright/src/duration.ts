/** `'3d'`, `'90m'`, `'1d 12h'`, `'45s'` or a number of seconds, as seconds. */
export function toSeconds(duration: string | number): number {
  if (typeof duration === 'number') {
    if (!Number.isInteger(duration) || duration < 0)
      throw new RangeError(`a duration in seconds must be a whole number ≥ 0, not ${duration}`);
    return duration;
  }
  const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 7 * 86_400 };
  const parts = duration.trim().split(/\s+/);
  let total = 0;
  for (const part of parts) {
    const match = /^(\d+)([smhdw])$/.exec(part);
    if (!match) throw new RangeError(`"${duration}" is not a duration: write it as 45s, 90m, 12h, 3d or 1w (or several, "1d 12h")`);
    total += Number(match[1]) * units[match[2]!]!;
  }
  return total;
}
