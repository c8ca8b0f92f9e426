/**
 * A run's timeline: each activity, timer and child as a bar from when it was scheduled to when it
 * ended (still open: up to now), on one time axis, as SVG.
 * @module
 */

/** A history event as the gateway's JSON view gives it. */
export interface UiEvent {
  readonly eventId: number;
  readonly eventTime: number;
  readonly attributes: { readonly type: string } & Record<string, unknown>;
}

/** One bar: what it is, when it started and ended, how it ended. */
export interface Bar {
  readonly kind: 'activity' | 'timer' | 'child';
  readonly label: string;
  readonly start: number;
  readonly end: number | null;
  readonly outcome: string;
}

const ENDINGS: Readonly<Record<string, { kind: Bar['kind']; outcome: string; key: string }>> = {
  ActivityTaskCompleted: { kind: 'activity', outcome: 'completed', key: 'scheduledEventId' },
  ActivityTaskFailed: { kind: 'activity', outcome: 'failed', key: 'scheduledEventId' },
  ActivityTaskTimedOut: { kind: 'activity', outcome: 'timed out', key: 'scheduledEventId' },
  ActivityTaskCanceled: { kind: 'activity', outcome: 'canceled', key: 'scheduledEventId' },
  TimerFired: { kind: 'timer', outcome: 'fired', key: 'startedEventId' },
  TimerCanceled: { kind: 'timer', outcome: 'canceled', key: 'startedEventId' },
  ChildWorkflowExecutionCompleted: { kind: 'child', outcome: 'completed', key: 'initiatedEventId' },
  ChildWorkflowExecutionFailed: { kind: 'child', outcome: 'failed', key: 'initiatedEventId' },
  ChildWorkflowExecutionCanceled: { kind: 'child', outcome: 'canceled', key: 'initiatedEventId' },
  ChildWorkflowExecutionTerminated: { kind: 'child', outcome: 'terminated', key: 'initiatedEventId' },
  ChildWorkflowExecutionTimedOut: { kind: 'child', outcome: 'timed out', key: 'initiatedEventId' },
};

/** The bars of a history, in the order they started. */
export function barsOf(events: readonly UiEvent[]): Bar[] {
  const open = new Map<number, { kind: Bar['kind']; label: string; start: number }>();
  const bars: Bar[] = [];
  for (const e of events) {
    const a = e.attributes;
    if (a.type === 'ActivityTaskScheduled') open.set(e.eventId, { kind: 'activity', label: `activity ${String(a.activityType)}`, start: e.eventTime });
    else if (a.type === 'TimerStarted') open.set(e.eventId, { kind: 'timer', label: `timer ${String(a.timerId)}`, start: e.eventTime });
    else if (a.type === 'StartChildWorkflowExecutionInitiated') open.set(e.eventId, { kind: 'child', label: `child ${String(a.workflowId)}`, start: e.eventTime });
    const ending = ENDINGS[a.type];
    const id = ending ? Number(a[ending.key]) : NaN;
    const started = open.get(id);
    if (ending && started) {
      open.delete(id);
      bars.push({ ...started, end: e.eventTime, outcome: ending.outcome });
    }
  }
  for (const started of open.values()) bars.push({ ...started, end: null, outcome: 'open' });
  return bars.sort((x, y) => x.start - y.start);
}

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 22;
const LABEL = 220;
const WIDTH = 900;

/** The bars drawn on one axis from the run's start to its end (or now). */
export function timelineSvg(bars: readonly Bar[], from: number, to: number): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  const height = Math.max(1, bars.length) * ROW + 24;
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${height}`);
  svg.setAttribute('width', String(WIDTH));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'timeline');
  const span = Math.max(1, to - from);
  const x = (t: number) => LABEL + ((t - from) / span) * (WIDTH - LABEL - 10);
  const add = (tag: string, attributes: Record<string, string | number>, text?: string) => {
    const element = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, String(v));
    if (text !== undefined) element.textContent = text;
    svg.appendChild(element);
    return element;
  };
  bars.forEach((bar, i) => {
    const y = i * ROW + 4;
    add('text', { x: 4, y: y + 14, class: 'bar-label' }, bar.label);
    const start = x(bar.start);
    const end = x(bar.end ?? to);
    const rect = add('rect', { x: start, y, width: Math.max(3, end - start), height: ROW - 6, rx: 3, class: `bar ${bar.kind} ${bar.outcome.replace(' ', '-')}`, 'data-kind': bar.kind, 'data-outcome': bar.outcome });
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${bar.label}: ${bar.outcome}, ${(((bar.end ?? to) - bar.start) / 1000).toFixed(3)} s`;
    rect.appendChild(title);
  });
  const axisY = bars.length * ROW + 16;
  add('text', { x: LABEL, y: axisY, class: 'axis' }, '0 s');
  add('text', { x: WIDTH - 60, y: axisY, class: 'axis' }, `${(span / 1000).toFixed(1)} s`);
  return svg;
}
