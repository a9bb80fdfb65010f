import type { Schemas } from '../../clients/api/api-client';
import { s } from '../lib/dom';
import { pct } from '../lib/format';

type Cell = Schemas['CalibrationCell'];

const SIZE = 320;
const PAD = { left: 46, right: 22, top: 14, bottom: 42 };
const PLOT = SIZE - PAD.left - PAD.right;
/** The axes end at the smallest of these that holds every point, so a model that never leaves 0–10% is not a dot. */
const DOMAINS = [0.1, 0.25, 0.5, 1];
const SERIES: Record<number, { label: string; cls: string }> = { 30: { label: 'scored at 30 s', cls: 'age30' }, 60: { label: 'scored at 60 s', cls: 'age60' } };

let counter = 0;

/**
 * A reliability diagram in SVG: each calibration cell with resolved predictions is a point at (mean predicted,
 * share that graduated), its area proportional to n; points on the diagonal are perfectly calibrated. The 30 s and
 * 60 s series differ in shape as well as colour. The cells' table beside it carries the same numbers as text.
 */
export function reliabilityDiagram(cells: readonly Cell[], title: string): SVGSVGElement {
  const id = `rd-${++counter}`;
  const points = cells.filter((c) => c.n > 0 && c.mean_predicted !== null && c.historical_actual_rate !== null);
  const top = Math.max(0, ...points.flatMap((c) => [c.mean_predicted!, c.historical_actual_rate!]));
  const domain = DOMAINS.find((d) => top <= d) ?? 1;
  const x = (p: number) => PAD.left + (p / domain) * PLOT;
  const y = (p: number) => PAD.top + PLOT - (p / domain) * PLOT;
  const maxN = Math.max(1, ...points.map((c) => c.n));
  const radius = (n: number) => 3 + 9 * Math.sqrt(n / maxN);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * domain);

  const grid = ticks.flatMap((t) => [
    s('line', { class: 'grid', x1: x(0), x2: x(domain), y1: y(t), y2: y(t) }),
    s('line', { class: 'grid', x1: x(t), x2: x(t), y1: y(0), y2: y(domain) }),
    s('text', { class: 'tick', x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end' }, pct(t, 0)),
    s('text', { class: 'tick', x: x(t), y: PAD.top + PLOT + 16, 'text-anchor': 'middle' }, pct(t, 0)),
  ]);

  const series = [30, 60].flatMap((age) => {
    const mine = points.filter((c) => c.age_bucket === age).sort((a, b) => a.mean_predicted! - b.mean_predicted!);
    const style = SERIES[age]!;
    const line =
      mine.length > 1
        ? [s('polyline', { class: `trace ${style.cls}`, points: mine.map((c) => `${x(c.mean_predicted!)},${y(c.historical_actual_rate!)}`).join(' ') })]
        : [];
    const marks = mine.map((c) => {
      const cx = x(c.mean_predicted!);
      const cy = y(c.historical_actual_rate!);
      const r = radius(c.n);
      const label = `${age} s, band ${pct(c.confidence_band.lo, 0)}–${pct(c.confidence_band.hi, 0)}: predicted ${pct(c.mean_predicted)}, graduated ${pct(c.historical_actual_rate)}, n ${c.n}`;
      const shape =
        age === 30
          ? s('circle', { class: `mark point ${style.cls}`, cx, cy, r })
          : s('rect', { class: `mark point ${style.cls}`, x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7 });
      shape.append(s('title', {}, label));
      return shape;
    });
    return [...line, ...marks];
  });

  const legend = [30, 60].map((age, i) => {
    const style = SERIES[age]!;
    const lx = PAD.left + 8;
    const ly = PAD.top + 10 + i * 16;
    return s(
      'g',
      {},
      age === 30
        ? s('circle', { class: `mark ${style.cls}`, cx: lx, cy: ly, r: 5 })
        : s('rect', { class: `mark ${style.cls}`, x: lx - 4.5, y: ly - 4.5, width: 9, height: 9 }),
      s('text', { class: 'legend', x: lx + 10, y: ly + 4 }, style.label),
    );
  });

  return s(
    'svg',
    { class: 'reliability', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'img', 'aria-labelledby': `${id}-t ${id}-d` },
    s('title', { id: `${id}-t` }, title),
    s(
      'desc',
      { id: `${id}-d` },
      points.length
        ? `${points.length} calibration cells with resolved predictions, predicted probability across, share graduated up, axes 0 to ${pct(domain, 0)}; the diagonal is perfect calibration.`
        : 'No calibration cell has resolved predictions yet.',
    ),
    ...grid,
    s('line', { class: 'diagonal', x1: x(0), y1: y(0), x2: x(domain), y2: y(domain) }),
    ...series,
    ...legend,
    s('text', { class: 'axis', x: PAD.left + PLOT / 2, y: SIZE - 6, 'text-anchor': 'middle' }, 'predicted probability'),
    s('text', { class: 'axis', x: 12, y: PAD.top + PLOT / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${PAD.top + PLOT / 2})` }, 'share graduated'),
  );
}
