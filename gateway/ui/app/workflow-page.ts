/**
 * One run's page (`/namespaces/:ns/workflows/:workflowId/:runId`): summary, input and result,
 * pending activities and timers, children, updates, search attributes and memo; the history as a
 * compact list, a timeline and every event with its details; the stack-trace query; and the
 * signal, query, update, cancel, terminate and reset actions, each confirmed first when it changes
 * the run. Links lead to the parent, the children and the runs before and after.
 * @module
 */
import { api, nsPath } from './api.js';
import { h, json, link, localTime, replace, table } from './dom.js';
import { barsOf, timelineSvg, type UiEvent } from './timeline.js';

/**
 * A run as `GET …/workflows/{id}?runId=` describes it: the current run's full state, or, for an
 * older run (continued as new, or before a reset), its visibility row with how it ended.
 */
type Described = Record<string, unknown> & {
  executionInfo: Record<string, unknown> & { workflowId: string; runId: string; status: string; startTime: number | string; closeTime: number | string | null; taskQueue: string; workflowType: string; parent?: { workflowId: string; runId: string; namespace?: string } | null };
  pendingActivities?: Array<Record<string, unknown>>;
  pendingTimers?: Array<{ timerId: string; expiryTime: number; startedEventId: number }>;
  pendingUpdates?: Array<Record<string, unknown>>;
  closeResult?: unknown;
  closeFailure?: unknown;
  result?: unknown;
  failure?: unknown;
};

/** Renders the run into `root`; returns a function that stops its refresh. */
export function workflowPage(root: HTMLElement, namespace: string, workflowId: string, runId: string): () => void {
  const path = nsPath(namespace, 'workflows', workflowId);
  const runQuery = `runId=${encodeURIComponent(runId)}`;
  const runUrl = (id: string, run: string, ns = namespace) => `/namespaces/${encodeURIComponent(ns)}/workflows/${encodeURIComponent(id)}/${encodeURIComponent(run)}`;
  const summary = h('div', { id: 'summary' });
  const panels = h('div', { id: 'panels', class: 'panels' });
  const pending = h('div', { id: 'pending' });
  const history = h('div', { id: 'history' });
  const output = h('div', { id: 'action-output' });
  const views = ['compact', 'timeline', 'events'] as const;
  let view: (typeof views)[number] = 'compact';
  let events: UiEvent[] = [];

  const act = async (label: string, confirmText: string | null, call: () => Promise<unknown>) => {
    if (confirmText && !confirm(confirmText)) return;
    try {
      const answer = await call();
      replace(output, h('div', { class: 'ok' }, `${label}: done`), answer === undefined ? null : json(answer));
      await refresh();
    } catch (e) {
      replace(output, h('div', { class: 'error' }, `${label}: ${(e as Error).message}`));
    }
  };
  const args = (input: HTMLInputElement): unknown[] => {
    const text = input.value.trim();
    if (!text) return [];
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  };
  const signalName = h('input', { id: 'signal-name', placeholder: 'signal name' });
  const signalArgs = h('input', { id: 'signal-args', placeholder: 'arguments (JSON array)' });
  const queryName = h('input', { id: 'query-name', placeholder: 'query name' });
  const queryArgs = h('input', { id: 'query-args', placeholder: 'arguments (JSON array)' });
  const updateName = h('input', { id: 'update-name', placeholder: 'update name' });
  const updateArgs = h('input', { id: 'update-args', placeholder: 'arguments (JSON array)' });
  const reason = h('input', { id: 'reason', placeholder: 'reason' });
  const resetEvent = h('input', { id: 'reset-event', placeholder: 'WorkflowTaskCompleted event id', size: 8 });
  const actions = h('div', { class: 'actions', id: 'actions' },
    h('div', {}, signalName, signalArgs, h('button', { id: 'signal', onclick: () => void act('signal', `Send signal ${signalName.value} to ${workflowId}?`, () => api('POST', `${path}/signals/${encodeURIComponent(signalName.value)}`, { runId, args: args(signalArgs) })) }, 'Signal')),
    h('div', {}, queryName, queryArgs, h('button', { id: 'query', onclick: () => void act('query', null, () => api('POST', `${path}/query/${encodeURIComponent(queryName.value)}`, { runId, args: args(queryArgs) })) }, 'Query')),
    h('div', {}, updateName, updateArgs, h('button', { id: 'update', onclick: () => void act('update', `Send update ${updateName.value} to ${workflowId}?`, () => api('POST', `${path}/update/${encodeURIComponent(updateName.value)}`, { runId, args: args(updateArgs) })) }, 'Update')),
    h('div', {}, reason,
      h('button', { id: 'cancel', onclick: () => void act('cancel', `Cancel ${workflowId}?`, () => api('POST', `${path}/cancel`, { runId, reason: reason.value })) }, 'Cancel'),
      h('button', { id: 'terminate', class: 'danger', onclick: () => void act('terminate', `Terminate ${workflowId}? It stops at once, without cleanup.`, () => api('POST', `${path}/terminate`, { runId, reason: reason.value })) }, 'Terminate'),
      resetEvent,
      h('button', { id: 'reset', onclick: () => void act('reset', `Reset ${workflowId} to event ${resetEvent.value}? A new run starts from there.`, () => api('POST', `${path}/reset`, { runId, eventId: Number(resetEvent.value), reason: reason.value || 'reset from the UI' })) }, 'Reset'),
      h('button', { id: 'stack', onclick: () => void act('stack trace', null, async () => (await api<{ result: string }>('POST', `${path}/query/__stack_trace`, { runId })).result) }, 'Stack trace'),
    ),
    output,
  );
  const tabs = h('div', { class: 'tabs' }, ...views.map((v) => h('button', { id: `view-${v}`, onclick: () => ((view = v), renderHistory()) }, v)));
  replace(root, h('h2', {}, 'Workflow ', h('code', {}, workflowId)), summary, actions, panels, pending, h('h3', {}, 'History'), tabs, history);

  const renderHistory = () => {
    for (const v of views) document.getElementById(`view-${v}`)?.classList.toggle('active', v === view);
    if (view === 'timeline') {
      const from = events[0]?.eventTime ?? Date.now();
      const last = events.at(-1);
      const closed = last && /^WorkflowExecution(Completed|Failed|Canceled|Terminated|TimedOut|ContinuedAsNew)$/.test(last.attributes.type);
      replace(history, timelineSvg(barsOf(events), from, closed ? last.eventTime : Date.now()));
    } else if (view === 'compact') {
      replace(history, table(events, [
        ['Id', (e) => e.eventId],
        ['Time', (e) => localTime(e.eventTime)],
        ['Event', (e) => e.attributes.type],
        ['About', (e) => brief(e)],
      ], { id: 'events-compact' }));
    } else {
      // Details a person opened stay open when the page refreshes.
      const opened = new Set([...history.querySelectorAll('details[open]')].map((d) => d.getAttribute('data-event')));
      replace(history, h('div', { id: 'events-full' }, ...events.map((e) => h('details', { class: 'event', 'data-event': e.eventId, open: opened.has(String(e.eventId)) }, h('summary', {}, `${e.eventId}  ${localTime(e.eventTime)}  ${e.attributes.type}`), json(e.attributes)))));
    }
  };

  const refresh = async () => {
    try {
      const [described, page] = await Promise.all([api<Described>('GET', `${path}?${runQuery}`), api<{ events: UiEvent[] }>('GET', `${path}/history?${runQuery}`)]);
      events = page.events;
      const info = described.executionInfo;
      const pendingActivities = described.pendingActivities ?? [];
      const pendingTimers = described.pendingTimers ?? [];
      const continuedBy = events.find((e) => e.attributes.type === 'WorkflowExecutionContinuedAsNew')?.attributes.newExecutionRunId as string | undefined;
      const continuedFrom = events[0]?.attributes.continuedExecutionRunId as string | null | undefined;
      replace(summary, table([info], [
        ['Run', (i) => i.runId],
        ['Type', (i) => i.workflowType],
        ['Status', (i) => h('span', { class: `status ${i.status}`, id: 'run-status' }, i.status)],
        ['Task queue', (i) => link(`/namespaces/${encodeURIComponent(namespace)}/task-queues/${encodeURIComponent(i.taskQueue)}`, i.taskQueue)],
        ['Started', (i) => localTime(i.startTime)],
        ['Closed', (i) => localTime(i.closeTime)],
        ['Events', () => events.length],
      ]), h('div', { class: 'links' },
        info.parent ? link(runUrl(info.parent.workflowId, info.parent.runId, info.parent.namespace ?? namespace), `parent ${info.parent.workflowId}`) : null,
        continuedFrom ? link(runUrl(workflowId, continuedFrom), 'the run before (continued from)') : null,
        continuedBy ? link(runUrl(workflowId, continuedBy), 'the next run (continued as new)') : null,
        ...childrenOf(events).map((c) => link(runUrl(c.workflowId, c.runId, c.namespace ?? namespace), `child ${c.workflowId}`)),
      ));
      replace(panels,
        h('section', { id: 'input' }, h('h3', {}, 'Input'), json(described.startInput ?? events[0]?.attributes.input ?? null)),
        h('section', { id: 'result' }, h('h3', {}, 'Result'), json(described.closeFailure ?? described.failure ?? described.closeResult ?? described.result ?? null)),
        h('section', { id: 'search-attributes' }, h('h3', {}, 'Search attributes'), json(described.searchAttributes ?? info.searchAttributes ?? {})),
        h('section', { id: 'memo' }, h('h3', {}, 'Memo'), json(described.memo ?? info.memo ?? {})),
      );
      replace(pending,
        h('h3', {}, 'Pending activities'),
        pendingActivities.length === 0 ? h('p', { class: 'empty' }, 'none') : table(pendingActivities, [
          ['Activity', (a) => String(a.activityType ?? a.activityId ?? '')],
          ['Attempt', (a) => String(a.attempt ?? '')],
          ['State', (a) => String(a.state ?? (a.startedEventId ? 'started' : 'scheduled'))],
          ['Since', (a) => sinceText(a.startedTime ?? a.scheduledTime)],
          ['Last failure', (a) => (a.lastFailure ? String((a.lastFailure as { message?: string }).message ?? '') : '')],
          ['Heartbeat', (a) => (a.heartbeatDetails === undefined || a.heartbeatDetails === null ? '' : JSON.stringify(a.heartbeatDetails))],
        ], { id: 'pending-activities' }),
        h('h3', {}, 'Pending timers'),
        pendingTimers.length === 0 ? h('p', { class: 'empty' }, 'none') : table(pendingTimers, [
          ['Timer', (t) => t.timerId],
          ['Fires at', (t) => localTime(t.expiryTime)],
        ], { id: 'pending-timers' }),
        (described.pendingUpdates?.length ?? 0) > 0 ? h('div', {}, h('h3', {}, 'Updates in flight'), json(described.pendingUpdates)) : null,
      );
      renderHistory();
    } catch (e) {
      replace(summary, h('div', { class: 'error' }, String((e as Error).message)));
    }
  };
  void refresh();
  const timer = setInterval(() => {
    const status = document.getElementById('run-status')?.textContent;
    if (status === 'Running') void refresh();
  }, 3_000);
  return () => clearInterval(timer);
}

/** What an event is about, in a few words. */
function brief(e: UiEvent): string {
  const a = e.attributes;
  if (a.type === 'ActivityTaskScheduled') return `${String(a.activityType)} (id ${String(a.activityId)})`;
  if (a.type === 'TimerStarted') return `timer ${String(a.timerId)}, ${Number(a.startToFireTimeoutMs) / 1000} s`;
  if (a.type === 'WorkflowExecutionSignaled') return `signal ${String(a.signalName)}`;
  if (a.type === 'MarkerRecorded') return String(a.markerName);
  if (a.type === 'StartChildWorkflowExecutionInitiated') return `child ${String(a.workflowId)}`;
  if ('failure' in a && a.failure) return String((a.failure as { message?: string }).message ?? '');
  return '';
}

function sinceText(value: unknown): string {
  const ms = typeof value === 'number' ? value : NaN;
  if (!Number.isFinite(ms) || ms <= 0) return '';
  return `${Math.max(0, Math.round((Date.now() - ms) / 1000))} s`;
}

/** The children a history started (their ids are in the started event's `workflowExecution`). */
function childrenOf(events: readonly UiEvent[]): Array<{ workflowId: string; runId: string; namespace?: string }> {
  return events
    .filter((e) => e.attributes.type === 'ChildWorkflowExecutionStarted')
    .map((e) => {
      const execution = e.attributes.workflowExecution as { workflowId: string; runId: string };
      return { workflowId: execution.workflowId, runId: execution.runId, ...(typeof e.attributes.namespace === 'string' ? { namespace: e.attributes.namespace } : {}) };
    });
}
