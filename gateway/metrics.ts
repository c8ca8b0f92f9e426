import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BatchResult } from '../processors/shard-runtime/batch-commit.js';
import { SHARD_STATES, type ShardTransition } from '../processors/shard-runtime/shard-lifecycle.js';
import type { ShardReport } from '../processors/shard-runtime/shard-records.js';
import type { IngressSource, IngressObserver } from '../processors/ingress/ingress-source.js';
import { HistoryMetrics } from './history-metrics.js';
import type { WorkerReport } from '../topics/wire/worker-report.js';

/** The most activity types worker reports add as label values (each is a histogram's series). */
const MAX_REPORTED_ACTIVITY_TYPES = 500;
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The engine's Prometheus metrics (prom-client). Processors, workers and the lag sampler report
 * through the `record…` methods; the gateway serves `registry` on /metrics.
 */
export class EngineMetrics {
  readonly registry = new Registry();
  private readonly history = new HistoryMetrics(this.registry);
  private readonly batchSize = new Histogram({ name: 'logbook_processor_batch_inputs', help: 'Inputs (commands and timers) per shard transaction', buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500], registers: [this.registry] });
  private readonly transaction = new Histogram({ name: 'logbook_processor_transaction_seconds', help: 'Begin-to-commit time of a shard transaction', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly deadLetters = new Counter({ name: 'logbook_dead_letters_total', help: 'Inputs written to the dead-letter topic, by the step that failed and its code', labelNames: ['step', 'code'], registers: [this.registry] });
  private readonly quarantined = new Counter({ name: 'logbook_quarantined_inputs_total', help: 'Inputs set aside (dead-lettered) because they made their shard fail twice in a row', registers: [this.registry] });
  private readonly shardTransitions = new Counter({ name: 'logbook_shard_transitions_total', help: 'Shard lifecycle moves on this node, by the state entered', labelNames: ['state'], registers: [this.registry] });
  private shardReports: () => readonly ShardReport[] = () => [];
  private readonly shardsByState = new Gauge({
    name: 'logbook_shards',
    help: 'Shards held by this node, by lifecycle state',
    labelNames: ['state'],
    registers: [this.registry],
    collect: () => this.collectShards(),
  });
  private readonly shardsConfigured = new Gauge({ name: 'logbook_shards_configured', help: "The deployment's shard count: the cluster's RUNNING shards (summed over nodes) fall short of it while a shard has no owner", registers: [this.registry] });
  private readonly restoreRemaining = new Gauge({ name: 'logbook_shard_restore_remaining_offsets', help: 'Offsets a restoring shard still has to read on the changelog it is reading', labelNames: ['shard'], registers: [this.registry] });
  private readonly timerLateness = new Histogram({ name: 'logbook_timer_lateness_seconds', help: 'How late durable timers fired', buckets: [...LATENCY_BUCKETS, 60, 120, 300, 900], registers: [this.registry] });
  private readonly workflowTask = new Histogram({ name: 'logbook_workflow_task_seconds', help: 'Workflow task processing time on the worker', labelNames: ['result'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly replay = new Histogram({ name: 'logbook_replay_seconds', help: 'Replay time of a workflow task (cache miss: full history)', labelNames: ['cache'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly cache = new Counter({ name: 'logbook_workflow_cache_requests_total', help: 'Workflow cache lookups by result (hit ratio = hit / total)', labelNames: ['result'], registers: [this.registry] });
  private readonly activity = new Histogram({ name: 'logbook_activity_task_seconds', help: 'Activity execution time on the worker', labelNames: ['activity_type', 'outcome'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly scheduleToStart = new Histogram({ name: 'logbook_activity_schedule_to_start_seconds', help: 'From an attempt being scheduled to a worker starting it', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  private readonly retries = new Counter({ name: 'logbook_activity_retries_total', help: 'Activity attempts after the first', labelNames: ['activity_type'], registers: [this.registry] });
  /** Consumer lag per shard (commands + internal) and per task topic. */
  readonly lag = new Gauge({ name: 'logbook_consumer_lag_records', help: 'Records not yet consumed', labelNames: ['topic', 'partition'], registers: [this.registry] });

  private readonly ingressRecords = new Counter({ name: 'logbook_ingress_records_total', help: 'Business records an ingress mapping read and committed past', labelNames: ['mapping'], registers: [this.registry] });
  private readonly ingressCommands = new Counter({ name: 'logbook_ingress_commands_total', help: 'Commands an ingress mapping wrote (starts, signal-with-starts or signals)', labelNames: ['mapping', 'action'], registers: [this.registry] });
  private readonly ingressDeadLetters = new Counter({ name: 'logbook_ingress_dead_letters_total', help: 'Business records an ingress mapping could not map, written to its dead-letter topic', labelNames: ['mapping'], registers: [this.registry] });
  private readonly ingressFailures = new Counter({ name: 'logbook_ingress_failures_total', help: 'Ingress batches that failed and were retried from the committed position', labelNames: ['mapping'], registers: [this.registry] });
  private ingressSources: () => readonly IngressSource[] = () => [];
  private readonly ingressLag = new Gauge({
    name: 'logbook_ingress_lag_records',
    help: 'Records of a source partition this node pumps that are not yet committed',
    labelNames: ['mapping', 'partition'],
    registers: [this.registry],
    collect: () => this.collectIngressLag(),
  });

  constructor(defaultMetrics = true) {
    if (defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'logbook_' });
  }

  /** The observer an engine's ingress reports its batches and failures to. */
  ingressObserver(): IngressObserver {
    return {
      onBatch: (mapping, batch) => {
        this.ingressRecords.inc({ mapping: mapping.name }, batch.records);
        if (batch.commands > 0) this.ingressCommands.inc({ mapping: mapping.name, action: mapping.action }, batch.commands);
        if (batch.deadLetters > 0) this.ingressDeadLetters.inc({ mapping: mapping.name }, batch.deadLetters);
      },
      onError: (mapping) => this.ingressFailures.inc({ mapping: mapping.name }),
    };
  }

  /** Reads the lag of these ingress sources whenever the metrics are scraped. */
  watchIngress(sources: () => readonly IngressSource[]): void {
    this.ingressSources = sources;
  }

  private async collectIngressLag(): Promise<void> {
    this.ingressLag.reset();
    for (const source of this.ingressSources()) {
      const lags = await source.lag().catch(() => new Map<number, number>());
      for (const [partition, lag] of lags) this.ingressLag.set({ mapping: source.mapping.name, partition: String(partition) }, lag);
    }
  }

  /** Counts what a committed shard batch did. */
  recordBatch(_shard: number, result: BatchResult): void {
    this.batchSize.observe(result.inputs + result.timersFired);
    this.transaction.observe(result.transactionMs / 1000);
    for (const outcome of result.outcomes) {
      if (outcome.fate === 'quarantined') this.quarantined.inc();
      if (outcome.fate === 'dead-lettered' || outcome.fate === 'quarantined') this.deadLetters.inc({ step: outcome.step ?? '', code: outcome.code ?? '' });
    }
    for (const lateness of result.timerLatenessMs) this.timerLateness.observe(Math.max(0, lateness) / 1000);
    this.history.observe(result.events);
  }

  /** Reads the shard reports of this node whenever /metrics is scraped; `shards` is the deployment's shard count. */
  watchShards(reports: () => readonly ShardReport[], shards?: number): void {
    this.shardReports = reports;
    if (shards !== undefined) this.shardsConfigured.set(shards);
  }

  recordShardTransition(transition: ShardTransition): void {
    this.shardTransitions.inc({ state: transition.to });
  }

  private collectShards(): void {
    const reports = this.shardReports();
    for (const state of SHARD_STATES) this.shardsByState.set({ state }, reports.filter((r) => r.state === state).length);
    this.restoreRemaining.reset();
    for (const r of reports) if (r.restore) this.restoreRemaining.set({ shard: String(r.shard) }, Math.max(0, r.restore.endOffset - r.restore.position));
  }

  /** Activity types worker reports have named; past {@link MAX_REPORTED_ACTIVITY_TYPES} the rest count as `other`. */
  private readonly reportedActivityTypes = new Set<string>();

  /**
   * A worker process's report: its samples counted as this node's own workers' are. Reports come
   * from outside, so the activity types they may add as label values are capped.
   */
  recordWorkerReport(report: WorkerReport): void {
    for (const task of report.workflowTasks) this.recordWorkflowTask(task);
    for (const attempt of report.activities) {
      const known = this.reportedActivityTypes.has(attempt.activityType);
      if (!known && this.reportedActivityTypes.size < MAX_REPORTED_ACTIVITY_TYPES) this.reportedActivityTypes.add(attempt.activityType);
      this.recordActivity({ ...attempt, activityType: this.reportedActivityTypes.has(attempt.activityType) ? attempt.activityType : 'other' });
    }
  }

  recordWorkflowTask(event: { cacheHit: boolean; replayMs: number; result: string }): void {
    this.cache.inc({ result: event.cacheHit ? 'hit' : 'miss' });
    this.replay.observe({ cache: event.cacheHit ? 'hit' : 'miss' }, event.replayMs / 1000);
    this.workflowTask.observe({ result: event.result }, event.replayMs / 1000);
  }

  recordActivity(event: { activityType: string; attempt: number; durationMs: number; scheduleToStartMs: number; outcome: string }): void {
    this.activity.observe({ activity_type: event.activityType, outcome: event.outcome }, event.durationMs / 1000);
    // A superseded task never started: it has no schedule-to-start time.
    if (event.outcome !== 'superseded') this.scheduleToStart.observe(Math.max(0, event.scheduleToStartMs) / 1000);
    if (event.attempt > 1) this.retries.inc({ activity_type: event.activityType });
  }
}
