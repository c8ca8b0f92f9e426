/**
 * The workflow list: the visibility query (with a builder for the usual filters), status facets,
 * paging, local times, auto-refresh. The query lives in the URL, so a filtered list is a link.
 * @module
 */
import { api, nsPath } from './api.js';
import { h, link, localTime, replace, table } from './dom.js';

interface Row {
  readonly workflowId: string;
  readonly runId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
  readonly status: string;
  readonly startTime: string;
  readonly closeTime: string | null;
}

const STATUSES = ['Running', 'Completed', 'Failed', 'Canceled', 'Terminated', 'TimedOut', 'ContinuedAsNew'] as const;
const PAGE_SIZE = 20;

/** A visibility query from the builder's fields (quotes in values escaped as the language wants). */
export function buildQuery(filters: { status?: string; type?: string; workflowId?: string }): string {
  const quote = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const parts: string[] = [];
  if (filters.status) parts.push(`ExecutionStatus = ${quote(filters.status)}`);
  if (filters.type) parts.push(`WorkflowType = ${quote(filters.type)}`);
  if (filters.workflowId) parts.push(`WorkflowId = ${quote(filters.workflowId)}`);
  return parts.join(' AND ');
}

/** Renders the list of `namespace` into `root`; returns a function that stops its refresh. */
export function workflowList(root: HTMLElement, namespace: string, navigate: (url: string) => void): () => void {
  const params = new URLSearchParams(location.search);
  const query = params.get('query') ?? '';
  const status = h('select', { id: 'filter-status' }, h('option', { value: '' }, 'any status'), ...STATUSES.map((s) => h('option', { value: s }, s)));
  const type = h('input', { id: 'filter-type', placeholder: 'workflow type' });
  const workflowId = h('input', { id: 'filter-id', placeholder: 'workflow id' });
  const raw = h('input', { id: 'query', value: query, placeholder: "visibility query, e.g. WorkflowType = 'order' AND ExecutionStatus = 'Running'", size: 80 });
  const autoRefresh = h('input', { type: 'checkbox', id: 'auto-refresh', checked: true });
  const facets = h('div', { class: 'facets', id: 'facets' });
  const rows = h('div', { id: 'rows' });
  const pager = h('div', { class: 'pager' });
  const error = h('div', { class: 'error', id: 'list-error' });
  const go = (q: string) => navigate(`/namespaces/${encodeURIComponent(namespace)}/workflows${q ? `?query=${encodeURIComponent(q)}` : ''}`);
  replace(
    root,
    h('h2', {}, 'Workflows'),
    h('form', { class: 'filters', id: 'filters', onsubmit: (e: Event) => (e.preventDefault(), go(raw.value.trim())) },
      status, type, workflowId,
      h('button', { type: 'button', id: 'build', onclick: () => go(buildQuery({ status: status.value, type: type.value.trim(), workflowId: workflowId.value.trim() })) }, 'Filter'),
      h('div', {}, raw, h('button', { type: 'submit', id: 'run-query' }, 'Run query')),
      h('label', {}, autoRefresh, ' refresh every 5 s'),
    ),
    facets,
    error,
    rows,
    pager,
  );

  let pageToken: string | null = null;
  /** The token of the page on screen (null: the first): a refresh reloads that page. */
  let shown: string | null = null;
  const load = async (token: string | null) => {
    shown = token;
    try {
      const search = new URLSearchParams({ query, pageSize: String(PAGE_SIZE), ...(token ? { nextPageToken: token } : {}) });
      const page = await api<{ executions: Row[]; nextPageToken: string | null }>('GET', `${nsPath(namespace, 'workflows')}?${search.toString()}`);
      replace(error);
      replace(rows, page.executions.length === 0 ? h('p', { class: 'empty' }, 'No runs match.') : table(page.executions, [
        ['Workflow id', (r) => link(`/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(r.workflowId)}/${encodeURIComponent(r.runId)}`, r.workflowId)],
        ['Type', (r) => r.workflowType],
        ['Status', (r) => h('span', { class: `status ${r.status}` }, r.status)],
        ['Task queue', (r) => r.taskQueue],
        ['Started', (r) => localTime(r.startTime)],
        ['Closed', (r) => localTime(r.closeTime)],
      ], { id: 'workflow-table' }));
      pageToken = page.nextPageToken;
      replace(pager, token ? h('button', { onclick: () => void load(null) }, 'First page') : null, pageToken ? h('button', { id: 'next-page', onclick: () => void load(pageToken) }, 'Next page') : null);
    } catch (e) {
      replace(error, String((e as Error).message));
    }
  };
  const loadFacets = async () => {
    const counts = await Promise.all(STATUSES.map(async (s) => {
      const q = query ? `(${query}) AND ExecutionStatus = '${s}'` : `ExecutionStatus = '${s}'`;
      const { count } = await api<{ count: number }>('GET', `${nsPath(namespace, 'workflow-count')}?query=${encodeURIComponent(q)}`).catch(() => ({ count: NaN }));
      return [s, count] as const;
    }));
    // Each count links to the list it counts: the query on screen narrowed to the status.
    const narrowed = (s: string) => (query ? `(${query}) AND ExecutionStatus = '${s}'` : `ExecutionStatus = '${s}'`);
    replace(facets, ...counts.map(([s, n]) => link(`/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(narrowed(s))}`, h('span', { class: `facet status ${s}`, 'data-status': s }, `${s} ${Number.isNaN(n) ? '?' : n}`))));
  };
  void load(null);
  void loadFacets();
  const timer = setInterval(() => {
    if (!autoRefresh.checked) return;
    void load(shown);
    void loadFacets();
  }, 5_000);
  return () => clearInterval(timer);
}
