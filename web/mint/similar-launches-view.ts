import type { Schemas } from '../../clients/api/api-client';
import { table } from '../accuracy/accuracy-tables';
import { h, type Child } from '../lib/dom';
import { DASH, dateTime, mult } from '../lib/format';

type SimilarLaunches = Schemas['SimilarLaunches'];

const outcome = (l: SimilarLaunches['launches'][number]) =>
  [l.graduated ? 'graduated' : 'did not graduate', l.rugged ? 'rugged' : null].filter((x) => x !== null).join(', ');

/** The launches behind the latest logged score, each linking to its own page; a note when there is no evidence. */
export function similarLaunchesView(s: SimilarLaunches | null | undefined, keyed: boolean): Child[] {
  if (s === undefined || (s === null && !keyed))
    return [h('p', { class: 'muted' }, 'With an API key (on the live page) the probe shows the launches behind the score.')];
  if (s === null) return [h('p', { class: 'muted' }, 'No logged score of this mint carries its similar launches.')];
  if (s.launches.length === 0)
    return [h('p', { class: 'muted' }, `The ${s.model_name} score had no neighbour resolved before ${dateTime(s.resolved_before)}.`)];
  return [
    h(
      'p',
      { class: 'sub' },
      `The ${s.age_bucket} s score of ${dateTime(s.scored_at)} stood on these launches, all resolved before it; model `,
      h('span', { class: 'mono' }, s.model_version),
      '.',
    ),
    table(
      'Similar launches',
      ['launch', 'distance', 'outcome', 'peak multiple', 'closest on'],
      s.launches.map((l) => [
        h('a', { href: `/mint/${l.mint}`, class: 'mono' }, `${l.mint.slice(0, 6)}…${l.mint.slice(-4)}`),
        l.distance.toFixed(3),
        outcome(l),
        l.peak_mult === null ? DASH : mult(l.peak_mult),
        l.matched_features.map((m) => m.feature).join(', '),
      ]),
      { numeric: [1, 3], id: 'similar-launches' },
    ),
  ];
}
