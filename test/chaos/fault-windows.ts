/**
 * The stretches of a chaos run during which a fault the harness injected (a `kill -9` of an engine
 * node or of a broker) may legitimately disturb the engine: a 503 with Retry-After, or a shard that
 * fails with a Kafka error, is expected inside one and a finding outside.
 */

/** One injected fault and how long its effects may last (epoch ms). */
export interface FaultWindow {
  readonly kind: 'engine-kill' | 'broker-kill';
  /** Which process: `engine-1`, `broker-3`… */
  readonly target: string;
  readonly from: number;
  readonly to: number;
}

/** How long after a killed process is back (and, for an engine node, its shards are served) its effects may last. */
export const SETTLE_MS = 30_000;
/** How long a fault whose recovery never came is allowed to disturb the run. */
export const UNRECOVERED_MS = 60_000;

/** What the harness recorded about one kill. */
export interface KillTimes {
  readonly kind: FaultWindow['kind'];
  readonly target: string;
  readonly killedAt: number;
  /** The killed process printed READY again (an engine node) or rejoined the cluster (a broker). */
  readonly restartedAt: number | null;
  /** Every shard the killed engine node owned was served again (engine kills only). */
  readonly recoveredAt?: number | null;
}

/** The window of one kill: from the kill until {@link SETTLE_MS} after the later of restart and recovery. */
export function faultWindow(kill: KillTimes): FaultWindow {
  const back = kill.kind === 'engine-kill' ? [kill.restartedAt, kill.recoveredAt ?? null] : [kill.restartedAt];
  const settledAt = back.every((t) => t !== null) ? Math.max(...(back as number[])) : null;
  const to = settledAt === null ? kill.killedAt + UNRECOVERED_MS : settledAt + SETTLE_MS;
  return { kind: kill.kind, target: kill.target, from: kill.killedAt, to };
}

/** The window that overlaps the span from `from` to `to` (a request sent before a kill and answered after it), if any. */
export function windowDuring(windows: readonly FaultWindow[], from: number, to: number): FaultWindow | undefined {
  return windows.find((w) => from <= w.to && to >= w.from);
}

/** The window that covers `at`, if any. */
export function windowAt(windows: readonly FaultWindow[], at: number): FaultWindow | undefined {
  return windows.find((w) => at >= w.from && at <= w.to);
}
