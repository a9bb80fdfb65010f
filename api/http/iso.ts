/** A time as every response writes it: ISO 8601 in UTC (a number is epoch milliseconds); null stays null. */
export function iso(t: Date | number): string;
export function iso(t: Date | number | null | undefined): string | null;
export function iso(t: Date | number | null | undefined): string | null {
  return t === null || t === undefined ? null : new Date(t).toISOString();
}
