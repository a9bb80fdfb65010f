import { storedKey, storeKey } from '../lib/api';
import { h, fill } from '../lib/dom';

/** The visible start of a key (`lp_live_<id>_`), never its secret part. */
const keyLabel = (k: string) => {
  const m = /^(lp_live_[^_]+_)/.exec(k);
  return m ? `${m[1]}…` : 'a key';
};

/**
 * Where a visitor gives the API key keyed panels use. It stays in this tab (sessionStorage) and goes only to this
 * API, as `X-API-Key`; the form is never submitted anywhere (the page's policy allows no form action).
 */
export function keyForm(onChange: () => void): HTMLElement {
  const box = h('div', { class: 'key-form' });
  const draw = () => {
    const key = storedKey();
    if (key) {
      fill(
        box,
        h(
          'p',
          { class: 'sub' },
          `Using ${keyLabel(key)} (kept in this tab only). `,
          h('button', { type: 'button', class: 'link', onclick: () => set(null) }, 'Forget key'),
        ),
      );
      return;
    }
    const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'lp_live_…' });
    fill(
      box,
      h(
        'form',
        {
          onsubmit: (e: Event) => {
            e.preventDefault();
            const value = input.value.trim();
            if (value) set(value);
          },
        },
        h('label', { for: 'api-key' }, 'API key'),
        h('span', { class: 'row' }, input, h('button', { type: 'submit' }, 'Use key')),
        h('span', { class: 'sub block' }, 'Kept in this browser tab only and sent only to this API.'),
      ),
    );
  };
  const set = (key: string | null) => {
    storeKey(key);
    draw();
    onChange();
  };
  draw();
  return box;
}
