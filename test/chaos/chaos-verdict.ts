import type { FuzzFigures } from './fuzz-tally.js';
import type { HistoryTopicAudit } from './history-topic-audit.js';
import type { ShardFailureSummary } from './shard-failures.js';

/**
 * The figures of a chaos run and the invariants they must meet (the engine's reliability promise): 0 lost,
 * 0 stuck, 0 duplicated history events, 0 completed activities run again, 0 shard failures caused
 * by a bad input, no 5xx but a 503 with Retry-After during a failover, no hang, and every killed
 * engine node's shards served again within {@link RECOVERY_LIMIT_MS}.
 */

/** How soon the shards of a killed engine node must be served again. */
export const RECOVERY_LIMIT_MS = 10_000;

/** The chaos workflows' fate, from the history topic. */
export interface WorkflowFigures {
  readonly offered: number;
  /** Starts the harness could not get into Kafka at all (not the engine's doing, but the run is then smaller than asked). */
  readonly notOffered: number;
  /** Starts the engine answered (accepted, or already started by an earlier attempt). */
  readonly startsConfirmed: number;
  /** Workflows with a run in the history topic. */
  readonly started: number;
  /** Closed as completed with the expected result. */
  readonly completed: number;
  /** Offered (in Kafka) and without any event in the history topic. */
  readonly lost: number;
  /** A run in the history topic that did not close. */
  readonly stuck: number;
  /** Closed otherwise (failed, timed out, terminated) or with a wrong result. */
  readonly closedWrongly: number;
}

/** The execution log against the histories (test/bench/execution-audit.ts). */
export interface ActivityFigures {
  readonly completed: number;
  readonly executions: number;
  readonly rerunsBeforeCompletion: number;
  readonly rerunsAfterCompletion: number;
  readonly completedWithoutExecution: number;
}

/** One kill and what it took to recover from it. */
export interface KillFigure {
  readonly kind: 'engine-kill' | 'broker-kill';
  readonly target: string;
  readonly atSecond: number;
  /** The process was back (READY, or in the cluster's metadata) this long after the kill. */
  readonly restartedAfterMs: number | null;
  /** Engine kills: the shards the node owned, and when all were served again (null: not within the run). */
  readonly shards?: readonly number[];
  readonly recoveryMs?: number | null;
}

/** Poison records sent and what became of them. */
export interface PoisonFigures {
  readonly sent: number;
  readonly failedToSend: number;
  readonly deadLettered: number;
  readonly byKind: Readonly<Record<string, { readonly sent: number; readonly deadLettered: number }>>;
  /** Dead letters the harness did not send (from the fuzz, or from the engine's own inputs). */
  readonly otherDeadLetters: number;
}

/** Every figure of a run. */
export interface ChaosFigures {
  readonly workflows: WorkflowFigures;
  readonly history: Pick<HistoryTopicAudit, 'records' | 'events' | 'runs' | 'duplicatedEvents' | 'gappedRuns' | 'keyMismatches' | 'wrongShard' | 'undecodable'>;
  readonly activities: ActivityFigures;
  readonly kills: readonly KillFigure[];
  readonly poison: PoisonFigures;
  readonly fuzz: FuzzFigures & { readonly planned: number };
  readonly shardFailures: Pick<ShardFailureSummary, 'total' | 'byCause' | 'byKind'>;
  /** Engine or worker processes that exited without the harness killing them. */
  readonly crashes: readonly string[];
}

/** One row of the printed table. */
export interface VerdictRow {
  readonly figure: string;
  readonly value: string;
  /** The invariant this figure is held to, if any, and whether it held. */
  readonly ok?: boolean;
}

/** The invariants that failed (empty when the run passed) and the table. */
export interface ChaosVerdict {
  readonly failures: readonly string[];
  readonly rows: readonly VerdictRow[];
}

/** Checks the invariants on the figures. */
export function chaosVerdict(f: ChaosFigures): ChaosVerdict {
  const rows: VerdictRow[] = [];
  const failures: string[] = [];
  const held = (figure: string, value: string | number, ok: boolean | undefined, failure?: string) => {
    rows.push({ figure, value: String(value), ...(ok === undefined ? {} : { ok }) });
    if (ok === false) failures.push(failure ?? `${figure}: ${value}`);
  };
  const w = f.workflows;
  held('workflows offered', w.offered, w.notOffered === 0, `${w.notOffered} of ${w.offered + w.notOffered} starts could not be written to Kafka`);
  held('workflows started (a run in the history topic)', `${w.started} (${w.startsConfirmed} confirmed by a reply)`, undefined);
  held('workflows completed', w.completed, undefined);
  held('workflows lost', w.lost, w.lost === 0);
  held('workflows stuck', w.stuck, w.stuck === 0);
  held('workflows closed otherwise or with a wrong result', w.closedWrongly, w.closedWrongly === 0);
  const h = f.history;
  held('history records / events / runs', `${h.records} / ${h.events} / ${h.runs}`, undefined);
  held('duplicated history events', h.duplicatedEvents, h.duplicatedEvents === 0);
  held('runs whose event ids are not 1..n', h.gappedRuns, h.gappedRuns === 0);
  held('history records keyed or placed unlike their event', h.keyMismatches + h.wrongShard, h.keyMismatches + h.wrongShard === 0);
  const a = f.activities;
  held('completed activities / executions logged', `${a.completed} / ${a.executions}`, undefined);
  held('re-runs before the completion was recorded (at-least-once)', a.rerunsBeforeCompletion, undefined);
  held('completed activities run again', a.rerunsAfterCompletion, a.rerunsAfterCompletion === 0);
  killRows(f.kills, held);
  const p = f.poison;
  held('poison records sent / dead-lettered', `${p.sent} / ${p.deadLettered}${p.failedToSend ? ` (${p.failedToSend} refused by Kafka)` : ''}`, undefined);
  const s = f.shardFailures;
  held('shard failures (input / fault / unexplained)', `${s.total} (${s.byCause.input} / ${s.byCause.fault} / ${s.byCause.unexplained})`, undefined);
  held('shard failures caused by a bad input', s.byCause.input, s.byCause.input === 0);
  const z = f.fuzz;
  held('fuzz requests', `${z.requests} of ${z.planned}`, z.requests >= z.planned, `the fuzz sent ${z.requests} of its ${z.planned} requests`);
  const byStatus = Object.entries(z.serverErrorsByStatus).map(([status, n]) => `${status}: ${n}`).join(', ');
  const asAsked = z.timeoutsAsAsked ? `; ${z.timeoutsAsAsked} of the 504s answered a short timeout the request asked for` : '';
  held('fuzz 5xx (other than 503 + Retry-After in a failover)', z.serverErrors ? `${z.serverErrors} (${byStatus}${asAsked})` : 0, z.serverErrors === 0, `fuzz 5xx (other than 503 + Retry-After in a failover): ${z.serverErrors} (${byStatus}${asAsked})`);
  held('fuzz 503 + Retry-After during a failover', z.byJudgement['allowed-503'], undefined);
  held('fuzz hangs (slower than its own wait + 10 s)', z.hangs, z.hangs === 0);
  held('processes that exited on their own', f.crashes.length, f.crashes.length === 0, `processes exited on their own: ${f.crashes.join('; ')}`);
  return { failures, rows };
}

function killRows(kills: readonly KillFigure[], held: (figure: string, value: string | number, ok: boolean | undefined, failure?: string) => void): void {
  const engine = kills.filter((k) => k.kind === 'engine-kill');
  const broker = kills.filter((k) => k.kind === 'broker-kill');
  const recoveries = engine.map((k) => k.recoveryMs ?? null);
  const slow = engine.filter((k) => k.recoveryMs === null || k.recoveryMs === undefined || k.recoveryMs > RECOVERY_LIMIT_MS);
  const shown = recoveries.map((ms) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)}`)).join(', ');
  held('kills (engine / broker)', `${engine.length} / ${broker.length}`, undefined);
  held(`recovery after each engine kill, s (limit ${RECOVERY_LIMIT_MS / 1000})`, shown || '-', slow.length === 0,
    `${slow.length} of ${engine.length} engine kills were not recovered within ${RECOVERY_LIMIT_MS / 1000} s: ${slow.map((k) => `${k.target} at ${k.atSecond} s → ${k.recoveryMs == null ? 'never' : `${(k.recoveryMs / 1000).toFixed(1)} s`}`).join(', ')}`);
}
