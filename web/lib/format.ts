/** How numbers read on the dashboard; null (not scored, not measured yet) always reads as an em dash. */
export const DASH = '—';

export function pct(p: number | null | undefined, digits = 1): string {
  if (p === null || p === undefined) return DASH;
  const v = p * 100;
  if (v !== 0 && Math.abs(v) < 0.1) return `${v < 0 ? '>-' : '<'}0.1%`;
  return `${v.toFixed(digits)}%`;
}

export function num(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined ? DASH : x.toFixed(digits);
}

export function int(x: number | null | undefined): string {
  return x === null || x === undefined ? DASH : Math.round(x).toLocaleString('en-US');
}

export function age(s: number): string {
  const t = Math.max(0, Math.floor(s));
  if (t < 60) return `${t} s`;
  if (t < 3600) return `${Math.floor(t / 60)} m ${String(t % 60).padStart(2, '0')} s`;
  return `${Math.floor(t / 3600)} h ${String(Math.floor((t % 3600) / 60)).padStart(2, '0')} m`;
}

export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined) return DASH;
  if (x >= 1e6) return `$${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `$${(x / 1e3).toFixed(1)}k`;
  return `$${x.toFixed(0)}`;
}

export function sol(x: number | null | undefined): string {
  if (x === null || x === undefined) return DASH;
  return `${x >= 100 ? x.toFixed(0) : x.toFixed(2)} SOL`;
}

export function mult(x: number | null | undefined): string {
  return x === null || x === undefined ? DASH : `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}

export function shortAddress(a: string): string {
  return a.length > 12 ? `${a.slice(0, 4)}…${a.slice(-4)}` : a;
}

export function clock(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  return d.toLocaleTimeString('en-GB', { hour12: false });
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return DASH;
  return `${age((now - Date.parse(iso)) / 1000)} ago`;
}
