import { topicCatalog } from '../../../topics/catalog.js';
import { openLog } from '../../../topics/log/open-log.js';
import type { Workload } from '../bench-context.js';
import type { SpeedOfLightResult } from '../speed-of-light.js';
import { benchTopics, growthBetween, snapshotEndOffsets, waitUntilQuiet, type TopicGrowth } from '../topic-records.js';
import { w1Rate, type RateStep } from '../w1.js';

/** The target the engine's records/s is reported against: half the bare kafkajs loop. */
const TARGET_FRACTION = 0.5;

/**
 * sol-ratio: how many records per second Logbook writes to Kafka while it keeps up with W1 load,
 * as a fraction of the speed-of-light loop measured in the same run (the `sol` workload's
 * records/s, which must have run before this one).
 *
 * W1 is offered open-loop at the highest rate the `w1` sweep of this run kept up with (the first
 * `--rates` value when w1 did not run), once the engine has worked off earlier load (the sweep's
 * last step usually leaves a backlog: no topic of the run may grow for a second, up to a minute).
 * After a warm-up, the end offsets of every partition of
 * this run's topics — the fixed topics and the `bench` queue's task topics; the other queues' task
 * topics carry nothing — are snapshotted, again a window later, and the committed data records in
 * between are read back and counted (transaction markers and aborted records excluded; see
 * topic-records.ts). Records/s is that count over the window.
 *
 * Two sums are reported: every topic (`recordsPerSecond`, the headline, compared with the target
 * of ≥ 50 %), and every topic but the command topic (`transactionalRecordsPerSecond`: what the
 * shard processors write in their transactions — the same kind of output as the loop's — since the
 * command topic holds the load generator's and the workers' requests, i.e. the engine's input).
 * The bare loop's figure counts output records, one per input. At a kept-up rate the engine
 * writes what the offered load needs, so the ratio is the engine's at its sustainable throughput,
 * not at its saturation point.
 */
export const solRatioWorkload: Workload = {
  name: 'sol-ratio',
  description: 'records/s the engine writes to Kafka at its best kept-up W1 rate, as a fraction of the speed-of-light loop',
  backends: ['kafka'],
  async run({ client, engine, brokers, settings, results, log }) {
    const sol = results.sol as Partial<SpeedOfLightResult> | undefined;
    if (typeof sol?.recordsPerSecond !== 'number') throw new Error('sol-ratio compares with the speed of light: run the sol workload before it (--workloads w1,sol,sol-ratio)');
    const sweep = (results.w1 as { sweep?: RateStep[] } | undefined)?.sweep ?? [];
    const rate = Math.max(0, ...sweep.filter((s) => s.keptUp).map((s) => s.offeredPerSecond)) || settings.rates[0]!;
    const warmupSeconds = settings.quick ? 2 : 5;
    const windowSeconds = settings.stepSeconds;
    const kafkaLog = await openLog({ kind: 'kafka', brokers: [...brokers!] });
    try {
      const catalog = topicCatalog({ prefix: engine.prefix, shards: settings.shards });
      const topics = await benchTopics(kafkaLog, engine.prefix, settings.shards);
      const quietAfterSeconds = await waitUntilQuiet(kafkaLog, topics, 60);
      log(`sol-ratio: W1 at ${rate} workflows/s (engine quiet ${quietAfterSeconds === null ? 'never' : `after ${quietAfterSeconds} s`}); ${warmupSeconds} s warm-up, then ${windowSeconds} s counted over ${topics.length} topics`);
      const load = w1Rate(client, rate, warmupSeconds + windowSeconds + 1, windowSeconds * 2);
      await sleep(warmupSeconds * 1000);
      const before = await snapshotEndOffsets(kafkaLog, topics);
      const from = Date.now();
      await sleep(windowSeconds * 1000);
      const after = await snapshotEndOffsets(kafkaLog, topics);
      const seconds = (Date.now() - from) / 1000;
      const step = await load;
      const growth = await growthBetween(kafkaLog, before, after);
      const sum = (filter: (topic: string) => boolean) => Object.entries(growth).filter(([t]) => filter(t)).reduce((n, [, g]) => n + g.records, 0);
      const records = sum(() => true);
      const transactional = sum((t) => t !== catalog.commands);
      const perSecond = (n: number) => Math.round(n / seconds);
      const ratio = perSecond(records) / sol.recordsPerSecond;
      const result = {
        offeredPerSecond: rate,
        quietAfterSeconds,
        windowSeconds: Math.round(seconds * 100) / 100,
        load: { started: step.started, completed: step.completed, keptUp: step.keptUp, p99Ms: Math.round(step.latency.p99) },
        records,
        recordsPerSecond: perSecond(records),
        transactionalRecordsPerSecond: perSecond(transactional),
        recordsPerWorkflow: Math.round((records / (rate * seconds)) * 10) / 10,
        speedOfLightRecordsPerSecond: sol.recordsPerSecond,
        ratio: Math.round(ratio * 1000) / 1000,
        transactionalRatio: Math.round((perSecond(transactional) / sol.recordsPerSecond) * 1000) / 1000,
        target: TARGET_FRACTION,
        meetsTarget: ratio >= TARGET_FRACTION,
        byTopic: Object.fromEntries(Object.entries(growth).map(([t, g]) => [t.slice(engine.prefix.length + 1), { ...g, recordsPerSecond: perSecond(g.records) } satisfies TopicGrowth & { recordsPerSecond: number }])),
      };
      log(`sol-ratio: ${result.recordsPerSecond} records/s (${result.recordsPerWorkflow} per workflow) = ${(ratio * 100).toFixed(1)} % of ${sol.recordsPerSecond} records/s; load kept up: ${step.keptUp}`);
      return {
        result,
        rows: [
          {
            figure: `engine records/s at ${rate} W1 workflows/s ÷ speed of light (target ≥ ${TARGET_FRACTION * 100} %)`,
            value: `${result.recordsPerSecond} / ${sol.recordsPerSecond} = ${(ratio * 100).toFixed(1)} % (transactional outputs only: ${(result.transactionalRatio * 100).toFixed(1)} %)`,
          },
        ],
      };
    } finally {
      await kafkaLog.close();
    }
  },
};

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
