/** Every UTC day from `from` to `to` inclusive (both `yyyy-mm-dd`); empty when `from` is after `to`. */
export function utcDaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t <= end; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}
