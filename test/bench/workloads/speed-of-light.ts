import type { Workload } from '../bench-context.js';
import { runSpeedOfLight } from '../speed-of-light.js';

/** The Kafka speed-of-light loop on bare kafkajs, on the same broker and partition count. */
export const speedOfLightWorkload: Workload = {
  name: 'sol',
  description: 'the bare kafkajs consume → transform → produce loop with the shard processor’s transactions',
  backends: ['kafka'],
  async run({ brokers, settings, log }) {
    log(`speed of light: ${settings.speedOfLightRecords} records through a bare kafkajs transactional loop`);
    const result = await runSpeedOfLight({ brokers: [...brokers!], partitions: settings.shards, records: settings.speedOfLightRecords, onProgress: log });
    return {
      result,
      rows: [{ figure: 'speed of light (bare kafkajs loop)', value: `${result.recordsPerSecond.toFixed(0)} records/s, ${result.transactionsPerSecond.toFixed(1)} transactions/s` }],
    };
  },
};
