import type { TopicCatalog } from '../../topics/catalog.js';
import type { Log } from '../../topics/log/log.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { HistoryEvent } from '../../topics/schemas/history-event/index.js';
import { auditExecutions, type RerunAfterCompletion } from '../bench/execution-audit.js';
import { CHAOS_PAYLOAD } from './chaos-load.js';
import type { ChaosFigures } from './chaos-verdict.js';
import type { FaultInjector } from './fault-injector.js';
import type { FuzzTally } from './fuzz-tally.js';
import { auditHistoryTopic } from './history-topic-audit.js';
import { matchPoison, suspectPoison } from './poison-figures.js';
import type { SentPoison } from './poison-sender.js';
import { summariseShardFailures, takeoverTimes, type ShardFailure, type TimedShardEvent } from './shard-failures.js';
import { stuckEvidence, taskCommands, taskRecords } from './stuck-evidence.js';
import { readExecutionLogs } from '../bench/workflows/activities.js';
import { readDeadLetters, readHistoryTopic } from './topic-readers.js';
import { workflowOutcomes, type OfferedWorkflow } from './workflow-outcomes.js';

/**
 * The audit after a chaos run: reads the history topic, the dead-letter topic and the execution
 * logs, and turns them, with what the harness recorded during the run, into the figures the
 * verdict checks and the details that are their evidence.
 */

/** What the harness recorded during the run. */
export interface RunRecord {
  readonly log: Log;
  readonly catalog: TopicCatalog;
  readonly offered: readonly OfferedWorkflow[];
  readonly activityLogs: readonly string[];
  readonly injector: FaultInjector;
  readonly poison: readonly SentPoison[];
  readonly fuzz: FuzzTally;
  readonly fuzzPlanned: number;
  readonly shardFailures: readonly ShardFailure[];
  /** Every `started` shard event of the run. */
  readonly shardStarts: readonly TimedShardEvent[];
  readonly crashes: readonly string[];
  readonly brokers: readonly string[];
  /** A live gateway, to describe the runs that are stuck. */
  readonly gateway: string;
}

/** The figures and their evidence. */
export interface AuditResult {
  readonly figures: ChaosFigures;
  readonly details: Record<string, unknown>;
}

/** Audits a run. */
export async function auditRun(run: RunRecord): Promise<AuditResult> {
  const { catalog } = run;
  const history = auditHistoryTopic(await readHistoryTopic(run.log, catalog), catalog.shardOf);
  const outcomes = workflowOutcomes(run.offered, history.runs, 'default', CHAOS_PAYLOAD, defaultDataConverter);
  const { executions, unreadableLines } = await readExecutionLogs(run.activityLogs);
  const activities = auditExecutions(outcomes.audited, executions, CHAOS_PAYLOAD);
  const poison = matchPoison(run.poison, await readDeadLetters(run.log, catalog), catalog.commands);
  const windows = run.injector.windows();
  const shardFailures = summariseShardFailures(run.shardFailures, windows);
  const fuzz = run.fuzz.figures(windows);
  const stuck = await stuckEvidence(run.log, catalog, run.brokers, run.gateway, outcomes.stuck, 'default', 'chaos').catch((error: Error) => `could not be read: ${error.message}`);
  const reruns = await rerunEvidence(run, history.runs, activities.rerunsAfterCompletion).catch((error: Error) => `could not be read: ${error.message}`);
  const h = history.audit;
  const figures: ChaosFigures = {
    workflows: outcomes.figures,
    history: { records: h.records, events: h.events, runs: h.runs, duplicatedEvents: h.duplicatedEvents, gappedRuns: h.gappedRuns, keyMismatches: h.keyMismatches, wrongShard: h.wrongShard, undecodable: h.undecodable },
    activities: {
      completed: activities.completedActivities,
      executions: activities.executions,
      rerunsBeforeCompletion: activities.rerunsBeforeCompletion,
      rerunsAfterCompletion: activities.rerunsAfterCompletion.length,
      completedWithoutExecution: activities.completedWithoutExecution,
    },
    kills: run.injector.figures(),
    poison: poison.figures,
    fuzz: { ...fuzz, planned: run.fuzzPlanned },
    shardFailures: { total: shardFailures.total, byCause: shardFailures.byCause, byKind: shardFailures.byKind },
    crashes: run.crashes,
  };
  const details = {
    workflowProblems: outcomes.problems,
    stuckEvidence: stuck,
    history: { duplicates: h.duplicates, gaps: h.gaps, keyMismatches: h.keyMismatchExamples, wrongShard: h.wrongShardExamples, undecodable: h.undecodableExamples, tombstones: h.tombstones },
    activities: { rerunsAfterCompletion: reruns, completedWithoutExecution: activities.completedWithoutExecution, executionsOfUnscheduledActivities: activities.executionsOfUnscheduledActivities, unreadableExecutionLogLines: unreadableLines },
    // Takeover: the kill until a node printed `started` for the shard (session timeout, rebalance, fencing, restore).
    kills: run.injector.details().map((k) => (k.shards ? { ...k, startedAgainAfterMs: takeoverTimes(k.killedAt, k.shards, run.shardStarts) } : k)),
    faultWindows: windows,
    shardFailures: { shardsByCause: shardFailures.shardsByCause, groups: shardFailures.groups.slice(0, 200), suspectPoison: suspectPoison(shardFailures.groups, run.poison) },
    poison: { sent: run.poison, notDeadLettered: poison.notDeadLettered, deadLetterCodes: poison.codes, deadLettered: poison.matched },
    fuzz: { byStatus: fuzz.byStatus, byJudgement: fuzz.byJudgement, serverErrorMessages: fuzz.serverErrorMessages, serverErrorsByKind: fuzz.serverErrorsByKind, examples: fuzz.examples, slowest: fuzz.slowest },
  };
  return { figures, details };
}

/**
 * The first re-runs after completion, each with the claims and results for its activity on the
 * command topic and its records on the activity task topic (two records: it was dispatched twice).
 */
async function rerunEvidence(run: RunRecord, runs: ReadonlyMap<string, readonly HistoryEvent[]>, reruns: readonly RerunAfterCompletion[]): Promise<unknown[]> {
  const listed = reruns.slice(0, 50).map((r) => {
    const events = [...runs.entries()].find(([key]) => key.startsWith(`default/${r.workflowId}/`))?.[1] ?? [];
    const scheduled = events.find((e) => e.attributes.type === 'ActivityTaskScheduled' && (e.attributes as { activityId?: string }).activityId === r.activityId);
    return { rerun: r, key: scheduled ? `${scheduled.runId}/${scheduled.eventId}` : undefined };
  });
  const keys = new Set(listed.flatMap((l) => (l.key ? [l.key] : [])));
  const commands = await taskCommands(run.log, run.catalog, keys);
  const tasks = await taskRecords(run.log, run.catalog, 'default', 'chaos', keys);
  return listed.map((l) => ({ ...l.rerun, commands: l.key ? (commands.get(l.key) ?? []) : [], taskRecords: l.key ? (tasks.get(l.key) ?? []) : [] }));
}
