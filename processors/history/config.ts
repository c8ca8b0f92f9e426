/**
 * Engine settings the history state machine needs. The shard processor passes its own; tests and
 * callers that have none use {@link defaultHistoryConfig}.
 * @module
 */

/**
 * Per-run limits (Temporal's names in brackets). Each can be set per namespace through
 * {@link HistoryConfig.namespaceLimits}; {@link limitsFor} picks what applies.
 */
export interface HistoryLimits {
  /** History length from which workflow tasks suggest continue-as-new (`HistoryCountSuggestContinueAsNew`). */
  readonly historyCountSuggestContinueAsNew: number;
  /** History size (bytes) from which workflow tasks suggest continue-as-new (`HistorySizeSuggestContinueAsNew`). */
  readonly historySizeSuggestContinueAsNewBytes: number;
  /** History length at which a warning marker is written once (`HistoryCountLimitWarn`). */
  readonly historyCountWarn: number;
  /** History size (bytes) at which a warning marker is written once (`HistorySizeLimitWarn`). */
  readonly historySizeWarnBytes: number;
  /** History length past which the run is terminated (`HistoryCountLimitError`). */
  readonly historyCountLimit: number;
  /** History size (bytes) past which the run is terminated (`HistorySizeLimitError`). */
  readonly historySizeLimitBytes: number;
  /** Most activities a run may have pending; more fail the workflow task (`NumPendingActivitiesLimitError`). */
  readonly maxPendingActivities: number;
  /** Most signals a run accepts; more are refused (`MaximumSignalsPerExecution`). */
  readonly maxSignalsPerRun: number;
  /** Most workflow tasks sent per second for one workflow; more wait for the next second, so a hot workflow cannot starve its shard. */
  readonly maxWorkflowTasksPerSecond: number;
  /** Largest payload (its data bytes) a command may carry (`BlobSizeLimitError`); see `payload-limits.ts`. */
  readonly maxPayloadBytes: number;
  /** Most child workflows a run may have pending; more fail the workflow task (`NumPendingChildExecutionsLimitError`). */
  readonly maxPendingChildWorkflows: number;
  /** Most updates a run has in flight (admitted or accepted, not completed); more are refused (`MaxInFlightUpdates`). */
  readonly maxInFlightUpdatesPerRun: number;
  /** Most updates a run accepts in total; more are refused (`MaxTotalUpdates`). */
  readonly maxUpdatesPerRun: number;
}

/**
 * What a namespace refuses in its runs' inputs and outputs (set in the namespace registry; see
 * `codec-required.ts` and `search-attribute-guard.ts`).
 */
export interface NamespaceGuards {
  /** Task queues whose payloads must be encrypted by the payload codec; `*` stands for every queue. */
  readonly codecRequiredTaskQueues: readonly string[];
  /** Search attribute names refused in starts and upserts (compared without regard to case). */
  readonly refusedSearchAttributes: readonly string[];
}

/** Engine settings of the history state machine. */
export interface HistoryConfig {
  /** Workflow-task start-to-close timeout when a start does not set one (Temporal: 10 s). */
  readonly defaultWorkflowTaskTimeoutMs: number;
  /** Backoff before workflow-task attempt 2; it doubles per attempt after that. */
  readonly workflowTaskRetryInitialIntervalMs: number;
  /** Cap of the workflow-task retry backoff. */
  readonly maxWorkflowTaskBackoffMs: number;
  /**
   * How long a dispatched workflow task may wait unclaimed before it times out
   * (`WorkflowTaskTimedOut`, timeout type ScheduleToStart) and is sent again as the next attempt, so
   * a task record that was lost (a worker that committed past it without answering) cannot strand
   * the run. Attempt n waits this × 2^(n−1), capped at {@link maxWorkflowTaskScheduleToStartTimeoutMs}:
   * long and growing, so a queue that is merely behind re-sends each task a few times at most.
   */
  readonly workflowTaskScheduleToStartTimeoutMs: number;
  /** Cap of the growing workflow-task schedule-to-start timeout. */
  readonly maxWorkflowTaskScheduleToStartTimeoutMs: number;
  /**
   * How long the engine waits, after the cancellation of a dispatched but unclaimed activity attempt
   * is requested, for a worker that may be running it to claim or answer it, before it cancels the
   * activity itself. Workers claim an attempt after 200 ms of running (`CLAIM_DEFER_MS`); this
   * leaves room for the claim's write on a loaded node. Default 2 s.
   */
  readonly unclaimedActivityCancelGraceMs: number;
  /** How many recent signal / cancel request ids a run remembers for deduplication. */
  readonly requestIdWindow: number;
  /** Most events a run buffers while a workflow task is in flight; more signals are refused. */
  readonly maxBufferedEvents: number;
  /** Per-run limits of every namespace without its own. */
  readonly limits: HistoryLimits;
  /** Limits of particular namespaces, over {@link limits}. */
  readonly namespaceLimits?: Readonly<Record<string, Partial<HistoryLimits>>>;
  /** How long closed runs are kept when their namespace sets no retention; default {@link DEFAULT_RETENTION_MS}. */
  readonly retentionMs?: number;
  /** Retention of particular namespaces (from the namespace registry), over {@link retentionMs}. */
  readonly namespaceRetentionMs?: Readonly<Record<string, number>>;
  /** Payload and search-attribute guards of particular namespaces (from the namespace registry); none by default. */
  readonly namespaceGuards?: Readonly<Record<string, NamespaceGuards>>;
}

/** Temporal's default namespace retention: 72 hours. */
export const DEFAULT_RETENTION_MS = 72 * 3_600_000;

const MiB = 1024 * 1024;

/** The default limits: Temporal's counts, byte sizes and pending-work limits. */
export const defaultHistoryLimits: HistoryLimits = Object.freeze({
  historyCountSuggestContinueAsNew: 10_240,
  historySizeSuggestContinueAsNewBytes: 4 * MiB,
  historyCountWarn: 30_000,
  historySizeWarnBytes: 10 * MiB,
  historyCountLimit: 51_200,
  historySizeLimitBytes: 50 * MiB,
  maxPendingActivities: 2_000,
  maxSignalsPerRun: 10_000,
  maxWorkflowTasksPerSecond: 200,
  maxPayloadBytes: 2 * MiB,
  maxPendingChildWorkflows: 2_000,
  maxInFlightUpdatesPerRun: 10,
  maxUpdatesPerRun: 2_000,
});

/** The defaults: Temporal's values where Temporal has one. */
export const defaultHistoryConfig: HistoryConfig = Object.freeze({
  defaultWorkflowTaskTimeoutMs: 10_000,
  workflowTaskRetryInitialIntervalMs: 1000,
  maxWorkflowTaskBackoffMs: 60_000,
  workflowTaskScheduleToStartTimeoutMs: 5 * 60_000,
  maxWorkflowTaskScheduleToStartTimeoutMs: 60 * 60_000,
  unclaimedActivityCancelGraceMs: 2_000,
  requestIdWindow: 200,
  maxBufferedEvents: 1000,
  limits: defaultHistoryLimits,
});

/** The limits that apply to runs of `namespace`. */
export function limitsFor(config: HistoryConfig, namespace: string): HistoryLimits {
  const own = config.namespaceLimits?.[namespace];
  return own ? { ...config.limits, ...own } : config.limits;
}

/** How long closed runs of `namespace` are kept before they are deleted. */
export function retentionFor(config: HistoryConfig, namespace: string): number {
  return config.namespaceRetentionMs?.[namespace] ?? config.retentionMs ?? DEFAULT_RETENTION_MS;
}

const noGuards: NamespaceGuards = Object.freeze({ codecRequiredTaskQueues: [], refusedSearchAttributes: [] });

/** The guards of `namespace` (none unless the registry sets some). */
export function guardsFor(config: HistoryConfig, namespace: string): NamespaceGuards {
  return config.namespaceGuards?.[namespace] ?? noGuards;
}
