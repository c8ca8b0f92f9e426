/**
 * Building the page: elements made with their text set as text (never parsed as HTML), so a
 * workflow id or payload can hold anything.
 * @module
 */

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

/** An element with attributes (`on…` are listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/** Appends children, text as text nodes. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A link the router handles (no page load). */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href, 'data-route': true }, ...children);
}

/** A time in the browser's zone (`2026-12-05 09:14:03`), or empty. */
export function localTime(value: unknown): string {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms <= 0) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A value as indented JSON in a `<pre>`. */
export function json(value: unknown): HTMLPreElement {
  return h('pre', { class: 'json' }, JSON.stringify(value, null, 2) ?? 'undefined');
}

/** A table of rows. */
export function table<T>(rows: readonly T[], columns: ReadonlyArray<readonly [string, (row: T) => Child]>, attributes: Attributes = {}): HTMLTableElement {
  return h(
    'table',
    attributes,
    h('thead', {}, h('tr', {}, ...columns.map(([heading]) => h('th', {}, heading)))),
    h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map(([, cell]) => h('td', {}, cell(row)))))),
  );
}
