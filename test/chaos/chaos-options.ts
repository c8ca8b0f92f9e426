import { parseArgs } from 'node:util';

/**
 * The settings of `npm run chaos`, from its flags. Sized for a 2-core machine: the full run offers
 * 2,000 workflows over five minutes with a kill every 30 s (about ten), and fuzzes 20,000 requests;
 * `--quick` is the same harness in a few minutes.
 */
export interface ChaosSettings {
  readonly quick: boolean;
  /** Leave the cluster (brokers, engine nodes, workers) running after the report, until Ctrl-C. */
  readonly keep: boolean;
  readonly workflows: number;
  /** Seconds over which the workflows are offered; kills, poison and fuzz happen during them. */
  readonly loadSeconds: number;
  /** Most seconds to wait, once arrivals stop, for the last workflows (and fuzz requests). */
  readonly drainSeconds: number;
  /** An engine node is killed with SIGKILL every this many seconds (alternating nodes). */
  readonly killEverySeconds: number;
  /** A killed engine node is started again on its data directory after this many seconds. */
  readonly restartAfterSeconds: number;
  /** The one killed broker stays down this long. */
  readonly brokerDownSeconds: number;
  readonly fuzz: number;
  readonly poison: number;
  readonly shards: number;
  /** Worker processes (each serves the chaos task queue). */
  readonly workerProcesses: number;
  /** The chaos workflow's timer. */
  readonly timerMs: number;
  /** Seeds the fuzz and the poison records. */
  readonly seed: number;
}

/** `npm run chaos -- --help`. */
export const CHAOS_USAGE = `usage: npm run chaos -- [--quick] [--keep] [--workflows N] [--kill-every S] [--fuzz N] [--poison N]
       [--load-seconds S] [--drain-seconds S] [--restart-after S] [--broker-down S] [--shards N] [--workers N]
       [--timer-ms MS] [--seed N]`;

const FULL = { workflows: 2_000, loadSeconds: 300, drainSeconds: 180, killEverySeconds: 30, fuzz: 20_000, poison: 150 } as const;
const QUICK = { workflows: 200, loadSeconds: 60, drainSeconds: 90, killEverySeconds: 20, fuzz: 2_000, poison: 30 } as const;

/** Parses the flags; throws a RangeError naming the flag for a bad value, an Error with the usage for an unknown flag. */
export function chaosSettings(argv: readonly string[], defaultSeed: number): ChaosSettings {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        workflows: { type: 'string' },
        'load-seconds': { type: 'string' },
        'drain-seconds': { type: 'string' },
        'kill-every': { type: 'string' },
        'restart-after': { type: 'string' },
        'broker-down': { type: 'string' },
        fuzz: { type: 'string' },
        poison: { type: 'string' },
        shards: { type: 'string' },
        workers: { type: 'string' },
        'timer-ms': { type: 'string' },
        seed: { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${CHAOS_USAGE}`);
  }
  const base = values.quick ? QUICK : FULL;
  const int = (flag: string, value: string | undefined, fallback: number, min: number, max: number): number => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) throw new RangeError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return n;
  };
  return {
    quick: values.quick!,
    keep: values.keep!,
    workflows: int('workflows', values.workflows, base.workflows, 1, 1_000_000),
    loadSeconds: int('load-seconds', values['load-seconds'], base.loadSeconds, 10, 86_400),
    drainSeconds: int('drain-seconds', values['drain-seconds'], base.drainSeconds, 10, 86_400),
    killEverySeconds: int('kill-every', values['kill-every'], base.killEverySeconds, 5, 86_400),
    restartAfterSeconds: int('restart-after', values['restart-after'], 5, 0, 600),
    brokerDownSeconds: int('broker-down', values['broker-down'], 15, 1, 600),
    fuzz: int('fuzz', values.fuzz, base.fuzz, 0, 10_000_000),
    poison: int('poison', values.poison, base.poison, 0, 100_000),
    shards: int('shards', values.shards, 8, 2, 256),
    workerProcesses: int('workers', values.workers, 2, 1, 8),
    timerMs: int('timer-ms', values['timer-ms'], 3_000, 0, 600_000),
    seed: int('seed', values.seed, defaultSeed, 0, 2 ** 31 - 1),
  };
}
