/**
 * The Logbook web UI: a page per address, so every view is a link — `/namespaces/:ns/workflows`
 * (the list), `/namespaces/:ns/workflows/:id/:runId` (a run), `…/schedules`, `…/schedules/:id`,
 * `/namespaces`, `…/task-queues/:queue`. Links inside the page change the address without a load.
 * @module
 */
import { api, whenUnauthenticated } from './api.js';
import { h, link, replace } from './dom.js';
import { bearerToken, codecSettings, setBearerToken, tokenSubject } from './session.js';
import { codecPanel, signInPanel } from './settings-panels.js';
import { namespaceList, scheduleList, schedulePage, taskQueuePage } from './other-pages.js';
import { workflowList } from './workflow-list.js';
import { workflowPage } from './workflow-page.js';

const header = document.getElementById('header')!;
const main = document.getElementById('main')!;
let stopCurrent: () => void = () => undefined;
/** Counts navigations: a page whose navigation is no longer the latest stops itself and draws nothing. */
let navigation = 0;

/** The namespace of the address, `default` outside one. */
function namespaceOf(pathname: string): string {
  const match = /^\/namespaces\/([^/]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : 'default';
}

function navigate(url: string): void {
  history.pushState(null, '', url);
  void route();
}

async function renderHeader(namespace: string): Promise<void> {
  const switcher = h('select', { id: 'namespace', onchange: () => navigate(`/namespaces/${encodeURIComponent(switcher.value)}/workflows`) });
  const names = await api<{ namespaces: Array<{ name: string }> }>('GET', '/api/v1/namespaces').then((r) => r.namespaces.map((n) => n.name)).catch(() => [] as string[]);
  for (const name of new Set(['default', ...names, namespace])) switcher.appendChild(h('option', { value: name, selected: name === namespace }, name));
  const ns = encodeURIComponent(namespace);
  const token = bearerToken();
  const signOut = () => {
    setBearerToken(undefined);
    void route();
  };
  const codec = h('button', { id: 'codec', type: 'button', onclick: () => showPanel(codecPanel(() => void route())) }, codecSettings() ? 'Codec: on' : 'Codec');
  const who = token ? h('span', { id: 'signed-in' }, tokenSubject(token), ' ', h('button', { id: 'sign-out', type: 'button', onclick: signOut }, 'Sign out')) : null;
  replace(header, h('strong', {}, 'Logbook'), link(`/namespaces/${ns}/workflows`, 'Workflows'), link(`/namespaces/${ns}/schedules`, 'Schedules'), link('/namespaces', 'Namespaces'), h('label', {}, 'namespace ', switcher), codec, who);
}

/** Stops the current page and shows a form in its place. */
function showPanel(panel: HTMLElement): void {
  stopCurrent();
  stopCurrent = () => undefined;
  navigation++;
  replace(main, panel);
}

// A 401 from any call: the page gives way to the sign-in form (once, however many calls were refused).
whenUnauthenticated((message) => {
  if (document.getElementById('sign-in')) return;
  if (bearerToken()) setBearerToken(undefined);
  showPanel(signInPanel(message, () => void route()));
});

async function route(): Promise<void> {
  stopCurrent();
  stopCurrent = () => undefined;
  const mine = ++navigation;
  const current = () => mine === navigation;
  const { pathname } = location;
  const namespace = namespaceOf(pathname);
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  await renderHeader(namespace);
  if (!current()) return;
  // Pages that load before drawing draw into a detached element, put in place only if still current.
  const draw = async (render: (root: HTMLElement) => Promise<void>) => {
    const root = h('div');
    await render(root);
    if (current()) replace(main, ...root.childNodes);
  };
  try {
    if (parts[0] === 'namespaces' && parts[2] === 'workflows' && parts.length === 5) stopCurrent = workflowPage(main, namespace, parts[3]!, parts[4]!);
    else if (parts[0] === 'namespaces' && parts[2] === 'schedules' && parts.length === 4) await schedulePage(main, namespace, parts[3]!, current);
    else if (parts[0] === 'namespaces' && parts[2] === 'schedules') await draw((root) => scheduleList(root, namespace));
    else if (parts[0] === 'namespaces' && parts[2] === 'task-queues' && parts.length === 4) await draw((root) => taskQueuePage(root, namespace, parts[3]!));
    else if (parts[0] === 'namespaces' && parts.length === 1) await draw((root) => namespaceList(root));
    else stopCurrent = workflowList(main, namespace, navigate);
  } catch (e) {
    if (current()) replace(main, h('div', { class: 'error' }, String((e as Error).message)));
  }
}

document.addEventListener('click', (event) => {
  const anchor = (event.target as Element).closest?.('a[data-route]') as HTMLAnchorElement | null;
  if (!anchor || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  navigate(anchor.getAttribute('href')!);
});
window.addEventListener('popstate', () => void route());
void route();
