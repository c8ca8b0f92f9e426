import { LogbookError } from '../../topics/errors.js';

/**
 * The states of one shard on one node, after Kafka Streams' `StreamTask`:
 *
 * ```
 * CREATED --fenced--> RESTORING --caught up--> RUNNING <--> SUSPENDED (a rebalance is under way)
 *   any --send/commit/abort/store error--> CORRUPTED --still assigned, same generation--> RESTORING
 *   any --fenced while assigned--> MIGRATED --> CLOSED (the node rejoins the group)
 *   any --revoked / stopped--> CLOSED
 * ```
 */
export const ShardState = {
  Created: 'CREATED',
  Restoring: 'RESTORING',
  Running: 'RUNNING',
  Suspended: 'SUSPENDED',
  Corrupted: 'CORRUPTED',
  Migrated: 'MIGRATED',
  Closed: 'CLOSED',
} as const;
export type ShardState = (typeof ShardState)[keyof typeof ShardState];

/** Every state, in the order metrics and health list them. */
export const SHARD_STATES: readonly ShardState[] = Object.values(ShardState);

/** Legal moves. CORRUPTED → CORRUPTED is a re-fence that failed again (retried with backoff). */
const TRANSITIONS: Readonly<Record<ShardState, readonly ShardState[]>> = {
  CREATED: ['RESTORING', 'CORRUPTED', 'MIGRATED', 'CLOSED'],
  RESTORING: ['RUNNING', 'SUSPENDED', 'CORRUPTED', 'MIGRATED', 'CLOSED'],
  RUNNING: ['SUSPENDED', 'CORRUPTED', 'MIGRATED', 'CLOSED'],
  SUSPENDED: ['RUNNING', 'CORRUPTED', 'MIGRATED', 'CLOSED'],
  CORRUPTED: ['RESTORING', 'CORRUPTED', 'MIGRATED', 'CLOSED'],
  MIGRATED: ['CLOSED'],
  CLOSED: [],
};

/** One move of a shard's lifecycle, as reported to listeners (health, metrics, logs). */
export interface ShardTransition {
  readonly shard: number;
  readonly from: ShardState;
  readonly to: ShardState;
  /** The assignment generation the move was made under. */
  readonly generation: number;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly reason: string;
  readonly error?: unknown;
}

/** A move the table does not allow, or one tagged with an older generation: a bug, never ignored. */
export class IllegalShardTransitionError extends LogbookError {
  constructor(message: string) {
    super('ILLEGAL_SHARD_TRANSITION', message);
  }
}

/**
 * The lifecycle of one shard under one assignment: a transition table where an illegal move
 * throws, and where every move carries the generation it was made under. A move tagged with an
 * older generation than the shard's is refused, so work begun for an earlier assignment (a
 * re-fence after a rebalance moved on) can never act on the current one.
 */
export class ShardLifecycle {
  private current: ShardState = ShardState.Created;
  private assignedGeneration: number;
  private enteredAt: number;

  constructor(
    readonly shard: number,
    generation: number,
    private readonly clock: () => number,
    private readonly onTransition: (transition: ShardTransition) => void = () => undefined,
  ) {
    this.assignedGeneration = generation;
    this.enteredAt = clock();
  }

  get state(): ShardState {
    return this.current;
  }

  /** The generation of the assignment this shard is held under. */
  get generation(): number {
    return this.assignedGeneration;
  }

  /** Epoch milliseconds of the last move. */
  get since(): number {
    return this.enteredAt;
  }

  /** True when the shard may serve reads and process inputs. */
  get serving(): boolean {
    return this.current === ShardState.Running || this.current === ShardState.Suspended;
  }

  /** Moves to `to` under `generation`; throws {@link IllegalShardTransitionError} for an illegal or stale move. */
  move(to: ShardState, generation: number, reason: string, error?: unknown): void {
    if (generation < this.assignedGeneration) {
      throw new IllegalShardTransitionError(`shard ${this.shard}: a move to ${to} for generation ${generation} is stale (the shard is held under generation ${this.assignedGeneration})`);
    }
    if (!TRANSITIONS[this.current].includes(to)) {
      throw new IllegalShardTransitionError(`shard ${this.shard} cannot move from ${this.current} to ${to} (${reason})`);
    }
    const from = this.current;
    this.current = to;
    this.assignedGeneration = generation;
    this.enteredAt = this.clock();
    this.onTransition({ shard: this.shard, from, to, generation, at: this.enteredAt, reason, ...(error === undefined ? {} : { error }) });
  }

  /** True if a move from the current state to `to` is legal. */
  canMove(to: ShardState): boolean {
    return TRANSITIONS[this.current].includes(to);
  }

  /** The shard was kept through a rebalance: it is now held under the new generation. */
  retag(generation: number): void {
    if (generation > this.assignedGeneration) this.assignedGeneration = generation;
  }
}

/** One line for a log: `shard 3: RUNNING → CORRUPTED (generation 2): why — the error`. */
export function transitionLine(t: ShardTransition): string {
  const error = t.error === undefined ? '' : ` — ${t.error instanceof Error ? t.error.message : String(t.error)}`;
  return `shard ${t.shard}: ${t.from} → ${t.to} (generation ${t.generation}): ${t.reason}${error}`;
}

/** True for the moves that mean trouble: an operator should see every one. */
export function isFailure(t: ShardTransition): boolean {
  return t.to === ShardState.Corrupted || t.to === ShardState.Migrated;
}
