import type { CommandClient } from '../../sdk/client/command-client.js';
import type { TopicCatalog } from '../../topics/catalog.js';
import type { ChaosSettings } from './chaos-options.js';
import type { ChaosCluster } from './chaos-cluster.js';
import { ChaosLoad } from './chaos-load.js';
import { FaultInjector } from './fault-injector.js';
import type { FuzzTally } from './fuzz-tally.js';
import { runFuzz } from './fuzz-runner.js';
import { sendPoison, type SentPoison } from './poison-sender.js';
import { seededRandom } from './seeded-random.js';
import { probeIds } from './shard-probe.js';
import { summariseShardFailures, type ShardFailure } from './shard-failures.js';

/**
 * The phases of a chaos run on a running cluster: the load phase (workflows offered, engine nodes
 * and one broker killed, poison produced, the fuzz sent, all at once), then the faults that a slow
 * recovery pushed past it, then the drain (the last workflows and fuzz requests). A progress line
 * every five seconds.
 */

/** Requests in flight at once: enough that requests waiting out their own timeouts (or hanging) do not stall the fuzz. */
const FUZZ_CONCURRENCY = 64;
/** The fuzz goes on into the drain when it fell behind, but not for ever. */
const FUZZ_GRACE_MS = 120_000;
/** The broker killed once (0-based): any would do; always the same one keeps runs comparable. */
const KILLED_BROKER = 2;

/** What the phases need, and where they record what happened. */
export interface PhaseContext {
  readonly settings: ChaosSettings;
  readonly cluster: ChaosCluster;
  readonly catalog: TopicCatalog;
  readonly client: CommandClient;
  /** Tags the workflow ids of this run. */
  readonly tag: string;
  readonly log: (line: string) => void;
  readonly poison: SentPoison[];
  readonly fuzz: FuzzTally;
  readonly shardFailures: readonly ShardFailure[];
}

/** Runs the phases; resolves with the load and the faults, for the audit. */
export async function runPhases(context: PhaseContext): Promise<{ load: ChaosLoad; injector: FaultInjector }> {
  const { settings, cluster, catalog, log, poison, fuzz } = context;
  const begin = Date.now() + 1_000;
  const until = begin + settings.loadSeconds * 1000;
  let stopped = false;
  const load = new ChaosLoad({ client: context.client, tag: context.tag, workflows: settings.workflows, begin, until, timerMs: settings.timerMs });
  const injector = new FaultInjector({
    engines: cluster.engines, kafka: cluster.kafka, probeIds: probeIds('default', settings.shards), killEveryMs: settings.killEverySeconds * 1000,
    restartAfterMs: settings.restartAfterSeconds * 1000, brokerDownMs: settings.brokerDownSeconds * 1000, broker: KILLED_BROKER, begin, until, log,
  });
  const progress = () => {
    const kills = injector.counts();
    const z = fuzz.provisional(injector.windows());
    const failed = summariseShardFailures(context.shardFailures, injector.windows());
    log(
      `${Math.round((Date.now() - begin) / 1000)} s: started ${load.confirmed()}/${load.offered()} of ${settings.workflows}, completed ${load.completed()}, ` +
        `kills ${kills.engine} engine + ${kills.broker} broker, poison ${poison.length}/${settings.poison}, fuzz ${fuzz.count}/${settings.fuzz} ` +
        `(5xx ${z.serverErrors}, hangs ${z.hangs}), shard failures ${failed.total} (input ${failed.byCause.input})`,
    );
  };
  const ticker = setInterval(progress, 5_000);
  const offering = load.offer();
  const faults = injector.run();
  const others = [
    sendPoison({ brokers: cluster.kafka.brokers, topic: catalog.commands, shards: settings.shards, count: settings.poison, random: seededRandom(settings.seed + 1), begin, until, isStopped: () => stopped, onSent: (p) => void poison.push(p) }),
    runFuzz({ planned: settings.fuzz, random: seededRandom(settings.seed), engines: cluster.engines, begin, until, deadline: until + settings.drainSeconds * 1000 + FUZZ_GRACE_MS, concurrency: FUZZ_CONCURRENCY, tally: fuzz, isStopped: () => stopped }),
  ];
  await offering;
  // Every planned fault happens, one at a time, even when a slow recovery pushed it past the arrivals.
  await faults;
  clearInterval(ticker);
  log(`arrivals over and every fault recovered from (or given up on); draining for at most ${settings.drainSeconds} s`);
  await load.drain(settings.drainSeconds * 1000, progress);
  stopped = true;
  load.stop();
  await Promise.all(others);
  return { load, injector };
}
