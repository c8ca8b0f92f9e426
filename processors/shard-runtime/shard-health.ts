import type { GroupMember } from '../../topics/log/log.js';
import { ShardState } from './shard-lifecycle.js';
import type { ShardReport } from './shard-records.js';

/** A shard with no owner in the group for longer than this makes every node unready. */
export const UNOWNED_GRACE_MS = 5_000;
/** A shard held back by a rebalance for longer than this makes its node unready. */
export const SUSPENDED_GRACE_MS = 30_000;
/** Failures within the trouble window at which a shard counts as failing repeatedly. */
export const REPEATED_FAILURES = 3;

/** Whether a node should get traffic, and if not, why. */
export interface Readiness {
  readonly ready: boolean;
  /** One sentence per problem, naming the shard. */
  readonly reasons: readonly string[];
  readonly shards: readonly ShardReport[];
}

/** What readiness is judged on. */
export interface HealthSource {
  shardReports(): readonly ShardReport[];
  /** The shards the group assigned to this node (a shard assigned but not opened yet has no report). */
  assignedShards(): readonly number[];
  members(): Promise<GroupMember[]>;
}

/**
 * Health that tells the truth: a node is ready when every shard it holds is RUNNING (or briefly
 * SUSPENDED by a rebalance), none is failing repeatedly, and no shard of the deployment has been
 * without an owner for more than a few seconds. A CORRUPTED, RESTORING or MIGRATED shard, or a
 * group coordinator this node cannot reach, makes it unready.
 */
export class ShardHealth {
  private readonly unownedSince = new Map<number, number>();

  constructor(
    private readonly source: HealthSource,
    private readonly shardCount: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async readiness(): Promise<Readiness> {
    const now = this.clock();
    const shards = this.source.shardReports();
    const reasons = shards.flatMap((r) => this.problemsOf(r, now));
    const opened = new Set(shards.map((r) => r.shard));
    for (const shard of this.source.assignedShards()) if (!opened.has(shard)) reasons.push(`shard ${shard} is assigned here and not opened yet`);
    try {
      reasons.push(...this.unowned(await this.source.members(), now));
    } catch (error) {
      reasons.push(`the group coordinator cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { ready: reasons.length === 0, reasons, shards };
  }

  private problemsOf(r: ShardReport, now: number): string[] {
    const problems: string[] = [];
    const since = Math.round((now - r.since) / 1000);
    if (r.state === ShardState.Suspended && now - r.since > SUSPENDED_GRACE_MS) problems.push(`shard ${r.shard} has been SUSPENDED by a rebalance for ${since} s`);
    else if (r.state !== ShardState.Running && r.state !== ShardState.Suspended) problems.push(`shard ${r.shard} is ${r.state} (for ${since} s)${r.lastError ? `: ${r.lastError}` : ''}`);
    if (r.recentFailures >= REPEATED_FAILURES) problems.push(`shard ${r.shard} is failing repeatedly (${r.recentFailures} failures in the last minute)${r.lastError ? `: ${r.lastError}` : ''}`);
    return problems;
  }

  private unowned(members: readonly GroupMember[], now: number): string[] {
    const owned = new Set(members.flatMap((m) => m.partitions));
    const problems: string[] = [];
    for (let shard = 0; shard < this.shardCount; shard++) {
      if (owned.has(shard)) {
        this.unownedSince.delete(shard);
        continue;
      }
      const since = this.unownedSince.get(shard) ?? now;
      this.unownedSince.set(shard, since);
      if (now - since > UNOWNED_GRACE_MS) problems.push(`shard ${shard} has had no owner for ${Math.round((now - since) / 1000)} s`);
    }
    return problems;
  }
}
