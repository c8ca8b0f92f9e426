import type { RestoreProgress } from '../../state-stores/shard-store.js';
import { ShardState, type ShardTransition } from './shard-lifecycle.js';
import type { ShardTask } from './shard-task.js';
import { SuspectInputs } from './suspect-inputs.js';

/** Failures within this window count as "failing repeatedly". */
export const TROUBLE_WINDOW_MS = 60_000;
/** A shard that ran this long since its last failure starts its back-off afresh. */
const HEALTHY_RUN_MS = 30_000;

/** Where one shard held by this node stands, for health and metrics. */
export interface ShardReport {
  readonly shard: number;
  readonly state: ShardState;
  readonly generation: number;
  /** Epoch ms of the last lifecycle move. */
  readonly since: number;
  /** Failures (and retried troubles) within the last {@link TROUBLE_WINDOW_MS}. */
  readonly recentFailures: number;
  readonly lastError?: string;
  /** While restoring: records applied and how far there is to go on the topic being read. */
  readonly restore?: { readonly topic: string; readonly position: number; readonly endOffset: number; readonly recordsApplied: number };
}

interface ShardRecord {
  task: ShardTask | undefined;
  readonly suspects: SuspectInputs;
  troubles: number[];
  lastError?: string;
  restore?: ShardReport['restore'];
  failuresInRow: number;
  lastFailureAt: number;
}

/**
 * What the manager remembers of each shard it has held: the task (while held), the inputs under
 * suspicion (kept across re-initialisations, so a shard re-opened after a failure knows what
 * failed), recent troubles, restore progress and the back-off of repeated failures.
 */
export class ShardRecords {
  private readonly byShard = new Map<number, ShardRecord>();

  constructor(private readonly clock: () => number) {}

  add(shard: number, task: ShardTask): void {
    this.record(shard).task = task;
  }

  remove(shard: number): void {
    const record = this.byShard.get(shard);
    if (record) record.task = undefined;
  }

  task(shard: number): ShardTask | undefined {
    return this.byShard.get(shard)?.task;
  }

  tasks(): ShardTask[] {
    return [...this.byShard.values()].flatMap((r) => (r.task ? [r.task] : []));
  }

  /** Shards with a task, in order. */
  shards(): number[] {
    return this.tasks().map((t) => t.shard).sort((a, b) => a - b);
  }

  suspects(shard: number): SuspectInputs {
    return this.record(shard).suspects;
  }

  noteTrouble(shard: number, error: unknown): void {
    const record = this.record(shard);
    const now = this.clock();
    record.troubles = [...record.troubles.filter((t) => now - t < TROUBLE_WINDOW_MS), now];
    record.lastError = error instanceof Error ? error.message : String(error);
  }

  noteRestore(shard: number, progress: RestoreProgress): void {
    const { topic, position, endOffset, recordsApplied } = progress;
    this.record(shard).restore = { topic, position, endOffset, recordsApplied };
  }

  noteTransition(transition: ShardTransition): void {
    const record = this.record(transition.shard);
    if (transition.to !== ShardState.Restoring) record.restore = undefined;
    if (transition.to === ShardState.Corrupted) {
      const now = this.clock();
      record.failuresInRow = now - record.lastFailureAt > HEALTHY_RUN_MS ? 1 : record.failuresInRow + 1;
      record.lastFailureAt = now;
    }
  }

  /** How long to wait before re-fencing a corrupted shard: doubled per failure in a row. */
  recoveryDelay(shard: number, backoff: { first: number; max: number }): number {
    const failures = Math.max(1, this.record(shard).failuresInRow);
    return Math.min(backoff.max, backoff.first * 2 ** (failures - 1));
  }

  reports(): ShardReport[] {
    const now = this.clock();
    return this.tasks()
      .sort((a, b) => a.shard - b.shard)
      .map((task) => {
        const record = this.record(task.shard);
        const recentFailures = record.troubles.filter((t) => now - t < TROUBLE_WINDOW_MS).length;
        return {
          shard: task.shard,
          state: task.lifecycle.state,
          generation: task.lifecycle.generation,
          since: task.lifecycle.since,
          recentFailures,
          ...(record.lastError && recentFailures > 0 ? { lastError: record.lastError } : {}),
          ...(record.restore ? { restore: record.restore } : {}),
        };
      });
  }

  private record(shard: number): ShardRecord {
    let record = this.byShard.get(shard);
    if (!record) this.byShard.set(shard, (record = { task: undefined, suspects: new SuspectInputs(), troubles: [], failuresInRow: 0, lastFailureAt: 0 }));
    return record;
  }
}
