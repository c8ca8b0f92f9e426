import type { DataConverter } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import type { AuditedWorkflow, AuditEvent } from '../bench/execution-audit.js';
import type { WorkflowFigures } from './chaos-verdict.js';

/**
 * What became of each chaos workflow, read from the history topic (not from the replies the load
 * generator saw, which a kill may cut short): lost (its start is in Kafka, no event is in the
 * history), stuck (its run never closed), closed wrongly, or completed with its result.
 */

/** One workflow the load generator offered. */
export interface OfferedWorkflow {
  readonly workflowId: string;
  /** Kafka acknowledged its start command (at least one attempt). */
  readonly inKafka: boolean;
  /** The engine answered the start (accepted, or already started). */
  readonly confirmed: boolean;
  /** The engine answered the harness's signal. */
  readonly signalled?: boolean;
}

/** The outcome of one workflow that did not complete as it should. */
export interface WorkflowProblem {
  readonly workflowId: string;
  readonly problem: 'lost' | 'stuck' | 'closed wrongly' | 'several runs';
  readonly detail: string;
}

/** Where a stuck run stopped. */
export interface StuckRun {
  readonly workflowId: string;
  readonly runId: string;
  readonly lastEventId: number;
  readonly lastType: string;
  readonly lastEventTime: number;
  /** The engine had answered the harness's signal to it. */
  readonly signalled: boolean;
}

/** The figures, the problems (first 50 of each kind) and each started workflow's first run for the execution audit. */
export interface WorkflowOutcomes {
  readonly figures: WorkflowFigures;
  readonly problems: readonly WorkflowProblem[];
  /** Every stuck run, for the evidence of where it stopped. */
  readonly stuck: readonly StuckRun[];
  readonly audited: readonly AuditedWorkflow[];
}

const CLOSING = new Set(['WorkflowExecutionCompleted', 'WorkflowExecutionFailed', 'WorkflowExecutionTimedOut', 'WorkflowExecutionTerminated', 'WorkflowExecutionCanceled', 'WorkflowExecutionContinuedAsNew']);
const LISTED = 50;

/** Classifies every offered workflow of namespace `namespace` against the runs of the history topic. */
export function workflowOutcomes(
  offered: readonly OfferedWorkflow[],
  runs: ReadonlyMap<string, readonly HistoryEvent[]>,
  namespace: string,
  expectedResult: unknown,
  converter: DataConverter,
): WorkflowOutcomes {
  const byWorkflow = new Map<string, Array<readonly HistoryEvent[]>>();
  for (const events of runs.values()) {
    const first = events[0];
    if (first?.namespace !== namespace) continue;
    byWorkflow.set(first.workflowId, [...(byWorkflow.get(first.workflowId) ?? []), events]);
  }
  const problems: WorkflowProblem[] = [];
  const listed: Record<WorkflowProblem['problem'], number> = { lost: 0, stuck: 0, 'closed wrongly': 0, 'several runs': 0 };
  const problem = (p: WorkflowProblem) => void (listed[p.problem]++ < LISTED && problems.push(p));
  const audited: AuditedWorkflow[] = [];
  const stuck: StuckRun[] = [];
  let started = 0;
  let completed = 0;
  const counts = { lost: 0, stuck: 0, closedWrongly: 0 };
  for (const w of offered.filter((o) => o.inKafka)) {
    const found = byWorkflow.get(w.workflowId) ?? [];
    if (found.length === 0) {
      counts.lost++;
      problem({ workflowId: w.workflowId, problem: 'lost', detail: w.confirmed ? 'the engine confirmed the start, yet no event is in the history topic' : 'its start is in Kafka and no event is in the history topic' });
      continue;
    }
    started++;
    if (found.length > 1) problem({ workflowId: w.workflowId, problem: 'several runs', detail: `${found.length} runs: ${found.map((e) => e[0]!.runId).join(', ')}` });
    const events = found[0]!;
    audited.push({ workflowId: w.workflowId, events: events.map((e) => auditEvent(e, converter)) });
    const last = events.at(-1)!;
    if (!CLOSING.has(last.attributes.type)) {
      counts.stuck++;
      stuck.push({ workflowId: w.workflowId, runId: last.runId, lastEventId: last.eventId, lastType: last.attributes.type, lastEventTime: last.eventTime, signalled: w.signalled ?? false });
      problem({ workflowId: w.workflowId, problem: 'stuck', detail: `run ${last.runId} ends at event ${last.eventId} (${last.attributes.type}) of ${new Date(last.eventTime).toISOString()}` });
      continue;
    }
    const result = last.attributes.type === 'WorkflowExecutionCompleted' ? decoded(last.attributes.result, converter) : undefined;
    if (last.attributes.type === 'WorkflowExecutionCompleted' && JSON.stringify(result) === JSON.stringify(expectedResult)) completed++;
    else {
      counts.closedWrongly++;
      problem({ workflowId: w.workflowId, problem: 'closed wrongly', detail: `${last.attributes.type}${result === undefined ? '' : ` with ${JSON.stringify(result)?.slice(0, 80)}`}` });
    }
  }
  return {
    figures: {
      offered: offered.filter((o) => o.inKafka).length,
      notOffered: offered.filter((o) => !o.inKafka).length,
      startsConfirmed: offered.filter((o) => o.confirmed).length,
      started,
      completed,
      lost: counts.lost,
      stuck: counts.stuck,
      closedWrongly: counts.closedWrongly,
    },
    problems,
    stuck,
    audited,
  };
}

/** A history event as the execution audit reads it (test/bench/execution-audit.ts), payloads decoded. */
function auditEvent(event: HistoryEvent, converter: DataConverter): AuditEvent {
  const a = event.attributes as { type: string; activityId?: string; scheduledEventId?: number; result?: unknown; identity?: string };
  return {
    eventId: event.eventId,
    eventTime: event.eventTime,
    runId: event.runId,
    attributes: {
      type: a.type,
      ...(a.activityId === undefined ? {} : { activityId: a.activityId }),
      ...(a.scheduledEventId === undefined ? {} : { scheduledEventId: a.scheduledEventId }),
      ...(a.result === undefined ? {} : { result: decoded(a.result, converter) }),
      ...(a.identity === undefined ? {} : { identity: a.identity }),
    },
  };
}

function decoded(payload: unknown, converter: DataConverter): unknown {
  if (payload === null || payload === undefined) return undefined;
  try {
    return converter.fromPayload(payload as Parameters<DataConverter['fromPayload']>[0]);
  } catch (error) {
    return `(undecodable result: ${(error as Error).message})`;
  }
}
