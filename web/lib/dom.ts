/**
 * Element builders. Every value becomes a text node or an attribute, never parsed markup: names and symbols are
 * whatever a token's launcher typed, so nothing from the API may reach innerHTML.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

function apply(el: Element, attrs: Attrs | undefined, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  el.append(...nodes(children));
}

export function nodes(children: readonly Child[]): Node[] {
  return children.flatMap((c): Node[] => {
    if (c === null || c === undefined || c === false) return [];
    if (Array.isArray(c)) return nodes(c);
    return [typeof c === 'object' ? (c as Node) : document.createTextNode(String(c))];
  });
}

/** Replaces what `el` holds. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren(...nodes(children));
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, children);
  return el;
}

/** A section with a heading (for the page outline and screen-reader navigation) and its body. */
export function panel(id: string, title: string, ...body: Child[]): HTMLElement {
  return h('section', { class: 'panel', id, 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), ...body);
}

/** A notice: `info` for a state the service is in (not live yet, warming up), `problem` for a failure. */
export function notice(kind: 'info' | 'problem', ...body: Child[]): HTMLElement {
  return h('p', { class: `notice ${kind}` }, ...body);
}
