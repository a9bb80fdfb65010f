import { h, fill } from '../lib/dom';
import { COLUMNS, compareBy, type Column, type Mint, type SortDir } from './live-columns';

/**
 * The tracked mints as a sortable table: each header is a button (so it sorts by click, Enter or Space), the sorted
 * header carries `aria-sort`, and the caption and a polite live region say what the order is. Rows are rebuilt at
 * each snapshot; a focused link in the body keeps its focus across the rebuild.
 */
export type LiveTable = { element: HTMLElement; update(mints: Mint[], generatedAt: string): void; rowCount(): number };

export function createLiveTable(o: { sort?: string; dir?: SortDir } = {}): LiveTable {
  let sortKey = o.sort ?? 'grad';
  let dir: SortDir = o.dir ?? 'descending';
  let mints: Mint[] = [];
  let generatedAt = new Date().toISOString();
  let scoredOnly = false;

  const caption = h('caption', { id: 'live-caption' });
  const announce = h('p', { class: 'visually-hidden', 'aria-live': 'polite', role: 'status' });
  const body = h('tbody');
  const headers = COLUMNS.map((c) =>
    h(
      'th',
      { scope: 'col', class: c.numeric ? 'num' : undefined, 'data-col': c.key },
      h(
        'button',
        { type: 'button', 'data-sort': c.key, title: c.title, onclick: () => sortBy(c) },
        c.label,
        h('span', { class: 'arrow', 'aria-hidden': 'true' }),
      ),
    ),
  );
  const table = h('table', { class: 'live', 'aria-describedby': 'live-help' }, caption, h('thead', {}, h('tr', {}, headers)), body);
  const filter = h('input', {
    type: 'checkbox',
    id: 'scored-only',
    onchange: (e: Event) => {
      scoredOnly = (e.target as HTMLInputElement).checked;
      render();
    },
  });
  const element = h(
    'div',
    { class: 'live-table' },
    h('div', { class: 'table-tools' }, h('label', { for: 'scored-only' }, filter, ' Scored mints only')),
    h('div', { class: 'table-wrap', role: 'region', 'aria-labelledby': 'live-caption', tabindex: '0' }, table),
    h(
      'p',
      { id: 'live-help', class: 'help' },
      'Column headers sort the table (again to reverse). grad_prob is the calibrated chance of graduating, shown from 30 s to 120 s of age; ',
      'its cell says how predictions in the same probability band did on mints that resolved. Runner odds are multiples of the price at scoring.',
    ),
    announce,
  );

  const column = () => COLUMNS.find((c) => c.key === sortKey) ?? COLUMNS[0]!;

  function sortBy(c: Column): void {
    dir = c.key === sortKey ? (dir === 'ascending' ? 'descending' : 'ascending') : c.firstDir;
    sortKey = c.key;
    render();
    announce.textContent = `Sorted by ${c.label}, ${dir}.`;
  }

  function render(): void {
    const elapsedS = (Date.now() - Date.parse(generatedAt)) / 1000;
    const ageOf = (m: Mint) => m.age_s + Math.max(0, elapsedS);
    const c = column();
    headers.forEach((th, i) => {
      const col = COLUMNS[i]!;
      if (col.key === c.key) th.setAttribute('aria-sort', dir);
      else th.removeAttribute('aria-sort');
      th.querySelector('.arrow')!.textContent = col.key === c.key ? (dir === 'ascending' ? ' ▲' : ' ▼') : '';
    });
    const shown = (scoredOnly ? mints.filter((m) => m.grad_prob !== null) : mints).slice().sort(compareBy(c, dir, ageOf));
    caption.textContent = `${shown.length} of ${mints.length} tracked mints, by ${c.label}, ${dir === 'ascending' ? 'lowest' : 'highest'} first`;

    const focused =
      document.activeElement instanceof HTMLAnchorElement && body.contains(document.activeElement) ? document.activeElement.getAttribute('href') : null;
    fill(
      body,
      ...shown.map((m) =>
        h(
          'tr',
          { 'data-mint': m.mint },
          COLUMNS.map((col, i) =>
            i === 0
              ? h('th', { scope: 'row' }, col.cell(m, ageOf(m)))
              : h('td', { class: col.numeric ? 'num' : undefined, 'data-label': col.label }, col.cell(m, ageOf(m))),
          ),
        ),
      ),
    );
    if (focused) body.querySelector<HTMLAnchorElement>(`a[href="${CSS.escape(focused)}"]`)?.focus();
  }

  render();
  return {
    element,
    update(next, at) {
      mints = next;
      generatedAt = at;
      render();
    },
    rowCount: () => body.rows.length,
  };
}
