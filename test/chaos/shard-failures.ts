import { windowAt, type FaultWindow } from './fault-windows.js';

/**
 * Shard failures read from the engine processes' output. An engine node reports each move of a
 * shard's lifecycle (processors/shard-runtime/shard-lifecycle.ts); the test engine process prints
 * it as `SHARD <n> <STATE> <the move>` (test/support/engine-main.ts) and `logbook dev` prints the
 * failures as `shard <n>: <FROM> → <STATE> (generation <g>): <reason> — <error>` (gateway/dev-server.ts).
 * The states CORRUPTED and MIGRATED are failures; the others are ordinary lifecycle steps.
 *
 * Each failure gets a cause, from its message and its time:
 * - `input`: the message is not a Kafka error (a name the engine refuses, a record it cannot decode
 *   or whose dead letter is too large, a stack overflow…): a record or request made the shard fail,
 *   which the engine promises never happens;
 * - `fault`: a Kafka error (fencing, a lost connection, a leader moving) inside the window of a kill
 *   the harness injected;
 * - `unexplained`: a Kafka error outside every such window.
 * The rules err towards `input`: a message that looks like neither is counted against the engine.
 */

/** One lifecycle event of a shard as printed by an engine process. */
export interface ShardEventLine {
  readonly shard: number;
  readonly kind: string;
  readonly message: string;
}

/** Kinds that are ordinary lifecycle steps, not failures (the later ones are those of the planned shard runtime). */
const ORDINARY = new Set(['created', 'restoring', 'running', 'suspended', 'closed']);

/** Messages that name a bad input, even when Kafka raised them (a dead letter larger than the record limit). */
const INPUT_SIGNATURES = /may contain only|DECODE_[A-Z_]+|ENCODE_[A-Z_]+|larger than the max message size|MESSAGE_TOO_LARGE|RECORD_TOO_LARGE|too large|Maximum call stack|Cannot read propert|is not a function|is not iterable|TypeError|RangeError|SyntaxError/;
/** Messages of the Kafka client and broker: fencing, connections, leadership, coordinators, transactions. */
const KAFKA_SIGNATURES = /kafkajs|consumer group|consumer#run|fenced|PRODUCER_FENCED|INVALID_PRODUCER_EPOCH|producer epoch|NOT_LEADER|leader|coordinator|CONCURRENT_TRANSACTIONS|ongoing transaction|ECONNREFUSED|ECONNRESET|EPIPE|connection|socket|disconnected|timed out|timeout|broker|does not host|UNKNOWN_TOPIC|NOT_ENOUGH_REPLICAS|in-sync replicas|rebalanc|transactional|outcome is unknown|OUT_OF_ORDER_SEQUENCE|INVALID_TXN_STATE/i;

/** Parses one output line; undefined for a line that is not a shard event. */
export function parseShardEventLine(line: string): ShardEventLine | undefined {
  const test = /^SHARD (\d+) ([A-Z]+)(?: (.*))?$/.exec(line.trim());
  const cli = test ? undefined : /^shard (\d+): [A-Z]+ → ([A-Z]+) \(generation \d+\): (.*)$/.exec(line.trim());
  const match = test ?? cli;
  if (!match) return undefined;
  return { shard: Number(match[1]), kind: match[2]!.toLowerCase(), message: match[3] ?? '' };
}

/** Whether a shard event is a failure. */
export function isShardFailure(event: ShardEventLine): boolean {
  return !ORDINARY.has(event.kind);
}

/** The cause of a failure seen at `at`; see the module comment. */
export type FailureCause = 'input' | 'fault' | 'unexplained';

/** Classifies a failure's message against the windows of the faults the harness injected. */
export function failureCause(message: string, at: number, windows: readonly FaultWindow[]): FailureCause {
  if (INPUT_SIGNATURES.test(message)) return 'input';
  if (!KAFKA_SIGNATURES.test(message)) return 'input';
  return windowAt(windows, at) ? 'fault' : 'unexplained';
}

/** One shard event as the harness saw it. */
export interface TimedShardEvent extends ShardEventLine {
  /** When the harness read the line (epoch ms). */
  readonly at: number;
  /** Which engine node printed it (`engine-1`…). */
  readonly node: string;
}

/** A shard event that is a failure (see {@link isShardFailure}). */
export type ShardFailure = TimedShardEvent;

/**
 * How long after `killedAt` each of `shards` was next running (fenced and restored) on any node,
 * from the nodes' `running` moves; null for a shard not running again.
 */
export function takeoverTimes(killedAt: number, shards: readonly number[], events: readonly TimedShardEvent[]): Record<number, number | null> {
  const out: Record<number, number | null> = {};
  for (const shard of shards) {
    const next = events.find((e) => e.kind === 'running' && e.shard === shard && e.at >= killedAt);
    out[shard] = next ? next.at - killedAt : null;
  }
  return out;
}

/**
 * Failures of one node, shard, kind and message (digits aside), counted: a shard in a loop prints the
 * same line thousands of times. `message` is the first one seen.
 */
export interface FailureGroup {
  readonly node: string;
  readonly shard: number;
  readonly kind: string;
  readonly cause: FailureCause;
  readonly message: string;
  readonly count: number;
  readonly firstAt: number;
  readonly lastAt: number;
}

/** Every failure, totalled by cause and kind and grouped by message. */
export interface ShardFailureSummary {
  readonly total: number;
  readonly byCause: Readonly<Record<FailureCause, number>>;
  readonly byKind: Readonly<Record<string, number>>;
  /** Shards that failed at least once, by cause. */
  readonly shardsByCause: Readonly<Record<FailureCause, readonly number[]>>;
  readonly groups: readonly FailureGroup[];
}

/** Summarises failures; the cause of each is decided with the final fault windows. */
export function summariseShardFailures(failures: readonly ShardFailure[], windows: readonly FaultWindow[]): ShardFailureSummary {
  const byCause: Record<FailureCause, number> = { input: 0, fault: 0, unexplained: 0 };
  const shards: Record<FailureCause, Set<number>> = { input: new Set(), fault: new Set(), unexplained: new Set() };
  const byKind: Record<string, number> = {};
  const groups = new Map<string, FailureGroup>();
  for (const f of failures) {
    const cause = failureCause(f.message, f.at, windows);
    byCause[cause]++;
    shards[cause].add(f.shard);
    byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
    // Offsets and counts inside a message would split one loop into thousands of groups.
    const id = `${f.node}|${f.shard}|${f.kind}|${cause}|${f.message.replace(/\d+/g, '#')}`;
    const seen = groups.get(id);
    groups.set(id, seen ? { ...seen, count: seen.count + 1, lastAt: f.at } : { node: f.node, shard: f.shard, kind: f.kind, cause, message: f.message, count: 1, firstAt: f.at, lastAt: f.at });
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    total: failures.length,
    byCause,
    byKind,
    shardsByCause: { input: sorted(shards.input), fault: sorted(shards.fault), unexplained: sorted(shards.unexplained) },
    groups: [...groups.values()].sort((a, b) => a.firstAt - b.firstAt),
  };
}
