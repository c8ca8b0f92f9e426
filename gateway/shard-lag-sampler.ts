import { consumerLag } from '../topics/log/consumer-lag.js';
import type { Engine } from './engine.js';
import type { EngineMetrics } from './metrics.js';

const SAMPLE_MS = 5_000;

/**
 * Samples, every few seconds, how many input records each shard this node owns has not processed
 * yet (commands and commands.internal), into `logbook_consumer_lag_records`: records, not offsets,
 * so the commit markers of the transactions that wrote commands.internal do not count. Returns a
 * stop function.
 */
export function startShardLagSampler(engine: Engine, metrics: EngineMetrics): () => void {
  const sample = async () => {
    for (const shard of engine.node.ownedShards()) {
      const positions = engine.node.processor(shard)?.inputPositions() ?? {};
      for (const [topic, position] of Object.entries(positions)) {
        const lag = await consumerLag(engine.log, topic, shard, position).catch(() => undefined);
        if (lag) metrics.lag.set({ topic, partition: String(shard) }, lag.records);
      }
    }
  };
  const timer = setInterval(() => void sample(), SAMPLE_MS).unref();
  return () => clearInterval(timer);
}
