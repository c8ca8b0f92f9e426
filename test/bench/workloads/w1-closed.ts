import { openLog } from '../../../topics/log/open-log.js';
import type { Log } from '../../../topics/log/log.js';
import type { BenchContext, TableRow, Workload } from '../bench-context.js';
import { transactionCount, type TransactionCount } from '../engine-figures.js';
import { cpuPerUnit, snapshotCpu, type CpuSnapshot } from '../process-cpu.js';
import { benchTopics, growthBetween, snapshotEndOffsets, totalRecords, type CountedTopic, type OffsetSnapshot } from '../topic-records.js';
import { w1ClosedLoop, w1Latency, type ClosedLoopStep, type Percentiles } from '../w1.js';

/** Callers of the closed loop unless `--concurrency` is given: the 64. */
export const DEFAULT_CONCURRENCY = 64;

/** One variant of W1 under closed-loop load, with what it cost. */
interface ClosedLoopFigures extends ClosedLoopStep {
  readonly workflowType: string;
  /** CPU ms per completed workflow by role, and `total`, from the kernel's per-process accounting. */
  readonly cpuMsPerWorkflow: Record<string, number>;
  /** Committed data records on every topic of the run per completed workflow (Kafka only). */
  readonly recordsPerWorkflow?: number;
  /** Records per completed workflow by topic (the prefix left off; Kafka only). */
  readonly recordsPerWorkflowByTopic?: Record<string, number>;
  readonly transactionsPerWorkflow: number;
  readonly inputsPerTransaction: number;
}

/** The W1 variants: steps as activities through task topics, and as local activities. */
const VARIANTS = [
  { workflowType: 'threeSteps', label: 'activities' },
  { workflowType: 'threeLocalSteps', label: 'local activities' },
] as const;

/**
 * w1c: W1 under closed-loop load (64 callers, each waiting for its workflow's result before starting
 * the next) with activities through task topics and with local activities; per variant the
 * completed workflows/s, latency, CPU per workflow of every process (engine, workers, broker, load
 * generator), records and shard transactions per workflow. Then the local variant one at a time
 * and the shard transactions one workflow costs when it has the engine to itself.
 */
export const w1ClosedWorkload: Workload = {
  name: 'w1c',
  description: `W1 closed loop (${DEFAULT_CONCURRENCY} callers): workflows/s, latency, CPU, records and transactions per workflow; local activities too`,
  backends: ['kafka', 'embedded'],
  async run(context) {
    const { settings, log, brokers } = context;
    const kafkaLog = settings.backend === 'kafka' ? await openLog({ kind: 'kafka', brokers: [...brokers!] }) : undefined;
    try {
      const topics = kafkaLog ? await benchTopics(kafkaLog, context.engine.prefix, settings.shards) : [];
      const loops: ClosedLoopFigures[] = [];
      for (const variant of VARIANTS) {
        log(`w1c: ${settings.concurrency} callers, ${variant.label}, ${settings.quick ? 3 : 5} s warm-up then ${settings.stepSeconds} s counted`);
        const figures = await closedLoop(context, variant.workflowType, kafkaLog, topics);
        log(
          `  ${figures.completedPerSecond.toFixed(1)} workflows/s, p50 ${figures.latency.p50.toFixed(0)} ms, p99 ${figures.latency.p99.toFixed(0)} ms, ` +
            `CPU ${JSON.stringify(figures.cpuMsPerWorkflow)} ms per workflow, ${figures.recordsPerWorkflow ?? '–'} records ${JSON.stringify(figures.recordsPerWorkflowByTopic ?? {})} ` +
            `and ${figures.transactionsPerWorkflow} transactions per workflow`,
        );
        loops.push(figures);
      }
      log(`w1c: local activities one at a time, ${settings.latencyRuns} workflows`);
      const local = await w1Latency(context.client, settings.latencyRuns, log, 5, 'threeLocalSteps');
      const alone = await transactionsAlone(context);
      log(`  local p50 ${local.latency.p50.toFixed(1)} ms; one W1 workflow alone costs ${alone.toFixed(1)} shard transactions`);
      return {
        result: { concurrency: settings.concurrency, loops, localLatency: local.latency, transactionsPerWorkflowAlone: alone },
        rows: [...loops.flatMap((l) => rowsOf(l, VARIANTS.find((v) => v.workflowType === l.workflowType)!.label)), ...aloneRows(local.latency, alone)],
      };
    } finally {
      await kafkaLog?.close();
    }
  },
};

async function closedLoop(context: BenchContext, workflowType: string, kafkaLog: Log | undefined, topics: CountedTopic[]): Promise<ClosedLoopFigures> {
  const { client, settings, engine } = context;
  let cpuBefore: CpuSnapshot = {};
  let cpuAfter: CpuSnapshot = {};
  let txBefore: TransactionCount = { transactions: 0, inputs: 0 };
  let txAfter: TransactionCount = { transactions: 0, inputs: 0 };
  let offsetsBefore: OffsetSnapshot | undefined;
  let offsetsAfter: OffsetSnapshot | undefined;
  const snapshot = async () => {
    const [cpu, tx, offsets] = await Promise.all([snapshotCpu(context.cpuRoles()), engine.metrics().then(transactionCount), kafkaLog && snapshotEndOffsets(kafkaLog, topics)]);
    return { cpu, tx, offsets };
  };
  const step = await w1ClosedLoop(client, settings.concurrency, settings.quick ? 3 : 5, settings.stepSeconds, {
    workflowType,
    onWindowStart: async () => void ({ cpu: cpuBefore, tx: txBefore, offsets: offsetsBefore } = await snapshot()),
    onWindowEnd: async () => void ({ cpu: cpuAfter, tx: txAfter, offsets: offsetsAfter } = await snapshot()),
  });
  const transactions = txAfter.transactions - txBefore.transactions;
  const growth = kafkaLog && offsetsBefore && offsetsAfter ? await growthBetween(kafkaLog, offsetsBefore, offsetsAfter) : undefined;
  const perWorkflow = (n: number) => (step.completed > 0 ? Math.round((n / step.completed) * 10) / 10 : Number.NaN);
  const byTopic = growth && Object.fromEntries(Object.entries(growth).filter(([, g]) => g.records > 0).map(([t, g]) => [t.slice(engine.prefix.length + 1), perWorkflow(g.records)]));
  return {
    ...step,
    workflowType,
    cpuMsPerWorkflow: cpuPerUnit(cpuBefore, cpuAfter, step.completed),
    ...(growth ? { recordsPerWorkflow: perWorkflow(totalRecords(growth)), recordsPerWorkflowByTopic: byTopic } : {}),
    transactionsPerWorkflow: perWorkflow(transactions),
    inputsPerTransaction: transactions > 0 ? Math.round(((txAfter.inputs - txBefore.inputs) / transactions) * 10) / 10 : 0,
  };
}

/** Shard transactions of W1 workflows run one at a time (ten of them, after two unmeasured). */
async function transactionsAlone({ client, engine, log }: BenchContext): Promise<number> {
  await w1Latency(client, 2, () => undefined, 0);
  const before = transactionCount(await engine.metrics());
  const runs = 10;
  await w1Latency(client, runs, () => undefined, 0);
  // Give the last run's trailing transactions (its task acknowledgement) time to commit.
  await new Promise((r) => setTimeout(r, 500));
  const after = transactionCount(await engine.metrics());
  log(`w1c: ${after.transactions - before.transactions} shard transactions for ${runs} workflows one at a time`);
  return (after.transactions - before.transactions) / runs;
}

function rowsOf(l: ClosedLoopFigures, label: string): TableRow[] {
  const cpu = l.cpuMsPerWorkflow;
  const parts = Object.entries(cpu).filter(([role]) => role !== 'total').map(([role, ms]) => `${role} ${ms}`);
  return [
    { figure: `W1 closed loop, ${l.concurrency} callers, ${label}: completed/s, p50 / p99`, value: `${l.completedPerSecond.toFixed(1)}/s, ${l.latency.p50.toFixed(0)} / ${l.latency.p99.toFixed(0)} ms` },
    { figure: `W1 closed loop, ${label}: CPU per workflow, all processes (by process)`, value: `${cpu.total ?? '–'} ms (${parts.join(', ')})` },
    {
      figure: `W1 closed loop, ${label}: records, shard transactions per workflow`,
      value: `${l.recordsPerWorkflow ?? '–'} records, ${l.transactionsPerWorkflow} transactions (${l.inputsPerTransaction} inputs each)`,
    },
  ];
}

function aloneRows(local: Percentiles, alone: number): TableRow[] {
  return [
    { figure: 'W1 latency p50 / p99, local activities (one at a time)', value: `${local.p50.toFixed(1)} / ${local.p99.toFixed(1)} ms` },
    { figure: 'W1 shard transactions per workflow, one at a time', value: alone.toFixed(1) },
  ];
}
