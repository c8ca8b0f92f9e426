/**
 * The log interface: everything the engine needs from a partitioned, transactional log, and
 * nothing more. Two implementations exist — Kafka (`kafka/`) and embedded (`embedded/`) — and they
 * pass one conformance suite. No other folder imports kafkajs; everything above this line speaks
 * only these types.
 *
 * Offsets are plain numbers: a partition would need 2^53 records before that loses precision.
 */

/** A record read from a partition. Only committed records are ever delivered (read_committed). */
export interface LogRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: Buffer | null;
  /** `null` is a tombstone. */
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, Buffer>>;
  /** Producer (create) time in epoch milliseconds. */
  readonly timestamp: number;
}

/** A record to write. Without `partition`, the partition is murmur2(key) mod partition count. */
export interface OutgoingRecord {
  readonly topic: string;
  readonly partition?: number;
  readonly key: Buffer | string | null;
  /** `null` writes a tombstone. */
  readonly value: Buffer | null;
  readonly headers?: Readonly<Record<string, Buffer | string>>;
  readonly timestamp?: number;
}

/** Where a written record landed. */
export interface RecordPosition {
  readonly topic: string;
  readonly partition: number;
}

/** Topic configuration as created by the catalog. */
export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
  readonly replicationFactor: number;
  /** Kafka topic configs (`cleanup.policy`, `max.message.bytes`…); the embedded log keeps them as metadata. */
  readonly config: Readonly<Record<string, string>>;
}

/** What the log knows about an existing topic. */
export interface TopicDescription {
  readonly name: string;
  readonly partitions: number;
  /** Partitions that have no leader yet (just created, or their replicas are down): nothing can be written there. */
  readonly partitionsWithoutLeader: number;
}

/** Creates and inspects topics. */
export interface TopicAdmin {
  /** Creates the topics that do not exist yet; existing ones are left as they are. */
  createTopics(specs: readonly TopicSpec[]): Promise<void>;
  /** Describes the named topics; a topic that does not exist is absent from the result. */
  describeTopics(names: readonly string[]): Promise<Map<string, TopicDescription>>;
  /** Deletes topics (tests and tooling only). */
  deleteTopics(names: readonly string[]): Promise<void>;
  /** The names of every topic that exists now. */
  listTopics(): Promise<string[]>;
  /** How many members a consumer group has now (0 for a group nobody joined). */
  groupMembers(groupId: string): Promise<number>;
  /**
   * A group's committed offsets of every partition of a topic, as monitoring tools read them
   * (without joining the group): partition → next offset to read, 0 where nothing was committed.
   */
  groupOffsets(groupId: string, topic: string): Promise<Map<number, number>>;
  /** How many brokers serve the log (the embedded log: 1); the replication defaults follow from it. */
  brokerCount(): Promise<number>;
}

/**
 * Idempotent, non-transactional producer: what clients, the gateway and workers use to write
 * into the command topic (a read_committed processor must never wait behind their transactions).
 */
export interface Producer {
  /** Writes the records; resolves once the log has acknowledged all of them. */
  send(records: readonly OutgoingRecord[]): Promise<RecordPosition[]>;
  close(): Promise<void>;
}

/**
 * An open transaction. Records sent in it become visible to read_committed readers only when
 * `commit` succeeds, all of them at once; after `abort` none ever become visible.
 *
 * Errors: `FencedError` — another owner initialised the same transactional id (stop, do not
 * re-initialise); `CommitOutcomeUnknownError` — the outcome is unknown (re-fence and restore).
 */
export interface Transaction {
  send(records: readonly OutgoingRecord[]): Promise<void>;
  /**
   * Commits a consumer group's positions of one partition as part of this transaction: they take
   * effect when it commits and never when it aborts (consume → transform → produce, exactly once).
   * The group must not commit the same partition outside transactions.
   */
  commitGroupPositions(groupId: string, partition: number, positions: InputPositions): Promise<void>;
  /** Commits; resolves with where the transaction's records ended in each partition it wrote. */
  commit(): Promise<CommitReceipt>;
  abort(): Promise<void>;
}

/** One partition a committed transaction wrote to. */
export interface WrittenPartition {
  readonly topic: string;
  readonly partition: number;
  /**
   * The offset after the transaction's last record there. Reading from it yields nothing of this
   * transaction (at most its commit marker), so it is a safe checkpoint for a store that applied
   * everything the transaction wrote.
   */
  readonly nextOffset: number;
}

/**
 * What a commit reports: the partitions written by records that named their partition (as
 * changelog records do), each with the offset after its last record there.
 */
export interface CommitReceipt {
  readonly written: readonly WrittenPartition[];
}

/**
 * A transactional producer bound to one transactional id. Creating it fences every earlier
 * producer with the same id: their next send or commit fails with `FencedError`.
 */
export interface TransactionalProducer {
  readonly transactionalId: string;
  /** Opens a transaction. Only one may be open at a time. */
  begin(): Promise<Transaction>;
  close(): Promise<void>;
}

/** What `readPartition` hands back once it reached the end it was asked for. */
export interface ReadResult {
  /** The offset to continue from (past any trailing transaction markers). */
  readonly nextOffset: number;
  /** The read_committed end of the partition when the read finished. */
  readonly endOffset: number;
  readonly recordsRead: number;
}

/** Options of a bounded read of one partition. */
export interface ReadOptions {
  /** Stop once this offset is reached; default: the read_committed end measured at the start. */
  readonly untilOffset?: number;
  /** Upper bound of bytes fetched per round trip. */
  readonly maxBytesPerFetch?: number;
  /** Aborts the read (with the signal's reason). */
  readonly signal?: AbortSignal;
}

/** One member of a consumer group as other members see it. */
export interface GroupMember {
  readonly memberId: string;
  /** The endpoint the member advertised (for example its gateway URL). */
  readonly endpoint: string;
  /** The shard (partition) numbers the member owns in the current generation. */
  readonly partitions: readonly number[];
}

/** Callbacks of a group consumer. They must return quickly; long work is started, not awaited. */
export interface AssignmentListener {
  /** A rebalance began: stop timers and dispatch at once; ownership may be about to change. */
  onRebalanceStarted?(): void;
  /** Partitions taken away from this member. Their buffered records were already dropped. */
  onRevoked(partitions: readonly number[]): void;
  /**
   * Partitions given to this member. They are paused: nothing is delivered for a partition until
   * `seek` sets its positions.
   */
  onAssigned(partitions: readonly number[], generation: number): void;
  /** A rebalance ended (after any onRevoked/onAssigned of it): partitions kept may go on. */
  onRebalanceCompleted?(): void;
  /** The consumer stopped for good (for example it crashed without a retry); every partition is lost. */
  onStopped?(error?: unknown): void;
}

/** Limits of one `take`. */
export interface TakeOptions {
  readonly maxRecords: number;
  readonly maxBytes: number;
  /** How long to wait for the first record when none is buffered. */
  readonly waitMs: number;
  readonly signal?: AbortSignal;
}

/** Options of a group consumer over co-partitioned topics. */
export interface GroupConsumerOptions {
  readonly groupId: string;
  /** Input topics; they must have the same partition count. Partition p of all of them goes to one member. */
  readonly topics: readonly string[];
  /** Endpoint advertised to the other members in the group metadata. */
  readonly endpoint: string;
  /** Buffered bytes per topic-partition above which fetching of it pauses. */
  readonly maxBufferedBytes?: number;
  /**
   * How long a member may go without a heartbeat before the group gives its partitions to the
   * others — for a member that died without leaving (kill -9, a lost machine), most of the
   * failover time. Default 6 s: the broker's default `group.min.session.timeout.ms`, the least it
   * accepts. A process whose event loop stalls that long is taken for dead and its partitions move.
   */
  readonly sessionTimeoutMs?: number;
}

/** Positions of the co-partitioned inputs of one partition: topic → next offset to read. */
export type InputPositions = Readonly<Record<string, number>>;

/**
 * Group consumption of co-partitioned topics. Partition p of every input is assigned to the
 * same member; the assignment is sticky across membership changes. Records are buffered per
 * partition and pulled with `take`; fetching never blocks the group's heartbeat.
 */
export interface GroupConsumer {
  start(listener: AssignmentListener): Promise<void>;
  /** Partitions this member owns now. */
  assignment(): readonly number[];
  /**
   * Sets where partition p of each input continues and enables delivery for p. Records before the
   * positions are never delivered; buffered records of p are discarded.
   */
  seek(partition: number, positions: InputPositions): void;
  /** Stops delivering records of partition p until `seek` or `resume`. */
  pause(partition: number): void;
  resume(partition: number): void;
  /**
   * Removes and returns buffered records of partition p (all inputs), in offset order per input.
   * Waits up to `waitMs` for a first record; returns an empty array on timeout or abort.
   */
  take(partition: number, options: TakeOptions): Promise<LogRecord[]>;
  /**
   * The generation of the assignment this member holds: it changes with every rebalance this
   * member takes part in, so work started for an older generation can tell it is stale.
   */
  generation(): number;
  /**
   * Resolves with the current generation once the group coordinator has confirmed, after this
   * call, that this member still belongs to it (a heartbeat answered). Rejects when the signal
   * aborts. A member that lost its membership without noticing (a long pause) must not re-fence a
   * shard before this resolves: the coordinator may have given the shard to another member.
   */
  confirmMembership(signal?: AbortSignal): Promise<number>;
  /**
   * Leaves the group and joins it again, so the coordinator hands out the partitions afresh
   * (every partition held is revoked first, as in a rebalance). The remedy when a partition's
   * transactional id was fenced while this member still holds it: its ownership is in doubt.
   */
  rejoin(): Promise<void>;
  /**
   * Commits the group's positions of partition p. The history processor keeps its real positions
   * in its changelog and commits here only for lag monitoring; workers rely on these positions to
   * resume a task topic after a restart.
   */
  commitPositions(partition: number, positions: InputPositions): Promise<void>;
  /** The group's committed positions of partition p (0 for an input never committed). */
  committedPositions(partition: number): Promise<InputPositions>;
  /** The members of the group with their advertised endpoints and partitions. */
  members(): Promise<GroupMember[]>;
  stop(): Promise<void>;
}

/** Options of a log client. */
export interface LogClientOptions {
  /** Largest record (key + value + headers) that may be written; larger ones are refused before sending. */
  readonly maxRecordBytes: number;
}

/**
 * Which log a process talks to: a Kafka cluster (by its cluster id, which a cluster keeps for life)
 * or the embedded log. A local store that materialises a log records this, so it is never read
 * against another log.
 */
export type LogIdentity = { readonly kind: 'kafka'; readonly clusterId: string } | { readonly kind: 'embedded' };

/** A partitioned log: Kafka or the embedded one. */
export interface Log {
  readonly kind: 'kafka' | 'embedded';
  readonly admin: TopicAdmin;
  readonly maxRecordBytes: number;
  /** The shared idempotent producer. */
  producer(): Promise<Producer>;
  /** A transactional producer for `transactionalId`, initialised (and so fencing older owners). */
  transactionalProducer(transactionalId: string, options?: { transactionTimeoutMs?: number }): Promise<TransactionalProducer>;
  groupConsumer(options: GroupConsumerOptions): GroupConsumer;
  /**
   * Reads one partition read_committed from `fromOffset` to its end (or `untilOffset`), calling
   * `onRecords` for each fetched chunk in order. 'The end' is the read_committed end offset, so a
   * partition that ends in transaction markers is still read to completion.
   */
  readPartition(
    topic: string,
    partition: number,
    fromOffset: number,
    onRecords: (records: readonly LogRecord[]) => Promise<void> | void,
    options?: ReadOptions,
  ): Promise<ReadResult>;
  /** The read_committed end offset of a partition (the last stable offset). */
  endOffset(topic: string, partition: number): Promise<number>;
  /** Which log this is (see {@link LogIdentity}); the Kafka log asks the cluster. */
  identity(): Promise<LogIdentity>;
  close(): Promise<void>;
}
