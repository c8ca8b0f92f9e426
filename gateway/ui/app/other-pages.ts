/**
 * Schedules (list; one schedule with its upcoming and recent actions, pause and trigger),
 * namespaces, and a task queue's partitions.
 * @module
 */
import { api, nsPath } from './api.js';
import { h, json, link, localTime, replace, table } from './dom.js';

/** The namespace's schedules. */
export async function scheduleList(root: HTMLElement, namespace: string): Promise<void> {
  const { schedules } = await api<{ schedules: Array<{ scheduleId: string; workflowType: string | null; createdAt: string }> }>('GET', nsPath(namespace, 'schedules'));
  replace(root, h('h2', {}, 'Schedules'), schedules.length === 0 ? h('p', { class: 'empty' }, 'No schedules.') : table(schedules, [
    ['Schedule id', (s) => link(`/namespaces/${encodeURIComponent(namespace)}/schedules/${encodeURIComponent(s.scheduleId)}`, s.scheduleId)],
    ['Workflow type', (s) => s.workflowType ?? ''],
    ['Created', (s) => localTime(s.createdAt)],
  ], { id: 'schedule-table' }));
}

interface ScheduleDescription {
  schedule: { spec: unknown; action: unknown; state: { paused: boolean; note?: string } };
  info: { nextActionTimes: Array<number | string>; recentActions: Array<{ scheduleTime?: string; actualTime?: string; workflowId?: string; runId?: string }>; numActions?: number };
}

/**
 * One schedule: its definition, state, upcoming and recent actions; pause, unpause and trigger,
 * each confirmed. Draws into `root` while `current()` says the page is still the one shown.
 */
export async function schedulePage(root: HTMLElement, namespace: string, scheduleId: string, current: () => boolean): Promise<void> {
  const path = nsPath(namespace, 'schedules', scheduleId);
  const problem = h('div', { class: 'error', id: 'schedule-error' });
  const render = async () => {
    const d = await api<ScheduleDescription>('GET', path);
    if (!current()) return;
    const paused = d.schedule.state.paused;
    const act = (verb: string, question: string) => async () => {
      if (!confirm(question)) return;
      try {
        await api('POST', `${path}/${verb}`, {});
        await render();
      } catch (e) {
        replace(problem, `${verb}: ${(e as Error).message}`);
      }
    };
    replace(root,
      h('h2', {}, 'Schedule ', h('code', {}, scheduleId)),
      h('p', {}, h('span', { class: `status ${paused ? 'Paused' : 'Running'}`, id: 'schedule-state' }, paused ? 'Paused' : 'Active'), ' ',
        h('button', { id: paused ? 'unpause' : 'pause', onclick: () => void act(paused ? 'unpause' : 'pause', `${paused ? 'Unpause' : 'Pause'} schedule ${scheduleId}?`)() }, paused ? 'Unpause' : 'Pause'),
        h('button', { id: 'trigger', onclick: () => void act('trigger', `Start a workflow of schedule ${scheduleId} now?`)() }, 'Trigger now')),
      d.schedule.state.note ? h('p', { class: 'empty' }, d.schedule.state.note) : null,
      problem,
      h('h3', {}, 'Upcoming actions'), h('ul', { id: 'upcoming' }, ...d.info.nextActionTimes.map((t) => h('li', {}, localTime(t)))),
      h('h3', {}, 'Recent actions'), table(d.info.recentActions, [
        ['Scheduled', (a) => localTime(a.scheduleTime)],
        ['Taken', (a) => localTime(a.actualTime)],
        ['Workflow', (a) => (a.workflowId && a.runId ? link(`/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(a.workflowId)}/${encodeURIComponent(a.runId)}`, a.workflowId) : '')],
      ], { id: 'recent-actions' }),
      h('h3', {}, 'Spec'), json(d.schedule.spec),
      h('h3', {}, 'Action'), json(d.schedule.action),
    );
  };
  await render();
}

/** Every namespace. */
export async function namespaceList(root: HTMLElement): Promise<void> {
  type Row = { name: string; state: string; retention: string; description: string; codecRequiredTaskQueues?: string[]; refusedSearchAttributes?: string[] };
  const { namespaces } = await api<{ namespaces: Row[] }>('GET', '/api/v1/namespaces');
  const names = (list: string[] | undefined) => (list && list.length > 0 ? list.join(', ') : '—');
  replace(root, h('h2', {}, 'Namespaces'), table(namespaces, [
    ['Name', (n) => link(`/namespaces/${encodeURIComponent(n.name)}/workflows`, n.name)],
    ['State', (n) => n.state],
    ['Retention', (n) => n.retention],
    // The payload guards: queues whose payloads must be encrypted, search attributes refused.
    ['Codec-required queues', (n) => names(n.codecRequiredTaskQueues)],
    ['Refused search attributes', (n) => names(n.refusedSearchAttributes)],
    ['Description', (n) => n.description],
  ], { id: 'namespace-table' }));
}

/** A task queue: each kind's partitions with backlog, offsets and pollers. */
export async function taskQueuePage(root: HTMLElement, namespace: string, taskQueue: string): Promise<void> {
  const d = await api<{ kinds: Array<{ kind: string; pollers: number; backlog: number; partitions: Array<{ partition: number; backlog: number; committedOffset: number; endOffset: number }> }> }>('GET', nsPath(namespace, 'task-queues', taskQueue));
  const rows = d.kinds.flatMap((k) => k.partitions.map((p) => ({ ...p, kind: k.kind, pollers: k.pollers })));
  replace(root, h('h2', {}, 'Task queue ', h('code', {}, taskQueue)), table(rows, [
    ['Kind', (r) => r.kind],
    ['Partition', (r) => r.partition],
    ['Backlog', (r) => r.backlog],
    ['Committed', (r) => r.committedOffset],
    ['End', (r) => r.endOffset],
    ['Pollers', (r) => r.pollers],
  ], { id: 'task-queue-table' }));
}
