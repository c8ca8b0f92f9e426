import type { RunningKafka } from '../kafka/broker.js';
import type { ChaosProcess } from './chaos-processes.js';
import type { KillFigure } from './chaos-verdict.js';
import { faultWindow, UNRECOVERED_MS, type FaultWindow, type KillTimes } from './fault-windows.js';
import { ownedShards, waitUntilServed, type ProbeChange } from './shard-probe.js';

/**
 * The faults of a chaos run: a `kill -9` of an engine node every `killEvery` seconds (the nodes in
 * turn; the killed one started again on its data directory and port after `restartAfter`), and one
 * broker killed once, halfway between two engine kills, and started again after `brokerDown`.
 *
 * Recovery of an engine kill is the time from the kill until every shard the killed node owned
 * (its /healthz just before the kill) was served again in one round of probes through a live
 * gateway (see shard-probe.ts). A kill waits for the previous one to recover, so one node is down at a time.
 */

/** What the injector needs. */
export interface FaultPlan {
  readonly engines: readonly ChaosProcess[];
  readonly kafka: RunningKafka;
  readonly probeIds: readonly string[];
  readonly killEveryMs: number;
  readonly restartAfterMs: number;
  readonly brokerDownMs: number;
  /** Which broker (0-based) to kill. */
  readonly broker: number;
  readonly begin: number;
  /** No new fault begins after this (epoch ms). */
  readonly until: number;
  readonly log: (line: string) => void;
}

/** One kill as it happened (filled in as the restart and the recovery come). */
interface KillRecord {
  readonly kind: KillTimes['kind'];
  readonly target: string;
  readonly killedAt: number;
  restartedAt: number | null;
  recoveredAt?: number | null;
  readonly shards?: readonly number[];
  firstServed?: Record<number, number>;
  timeline?: readonly ProbeChange[];
}

/** Injects the faults of a {@link FaultPlan} and records them. */
export class FaultInjector {
  private readonly kills: KillRecord[] = [];
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(private readonly plan: FaultPlan) {}

  /** Windows of the kills so far (an open one reaches {@link UNRECOVERED_MS} past its kill). */
  windows(): FaultWindow[] {
    return this.kills.map(faultWindow);
  }

  counts(): { engine: number; broker: number } {
    return { engine: this.kills.filter((k) => k.kind === 'engine-kill').length, broker: this.kills.filter((k) => k.kind === 'broker-kill').length };
  }

  /** Runs until `until`, one fault at a time; resolves once the last fault has recovered (or given up). */
  async run(): Promise<void> {
    const { plan } = this;
    const engineKills = Math.max(0, Math.floor((plan.until - plan.begin) / plan.killEveryMs));
    const brokerAt = plan.begin + (Math.floor(engineKills / 2) + 0.5) * plan.killEveryMs;
    let brokerKilled = false;
    for (let i = 1; !this.stopped; i++) {
      const at = plan.begin + i * plan.killEveryMs;
      if (!brokerKilled && brokerAt < at && brokerAt <= plan.until) {
        brokerKilled = true;
        if (await this.sleepUntil(brokerAt)) await this.killBroker();
      }
      if (at > plan.until || !(await this.sleepUntil(at))) break;
      await this.killEngine(plan.engines[(i - 1) % plan.engines.length]!);
    }
  }

  /** Stops injecting; a fault under way still runs to its recovery. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** Sleeps until `at`; false when stopped meanwhile. */
  private async sleepUntil(at: number): Promise<boolean> {
    if (this.stopped) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, at - Date.now()));
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    return !this.stopped;
  }

  /** The kills as figures, times counted from `begin`. */
  figures(): KillFigure[] {
    return this.kills.map((k) => ({
      kind: k.kind,
      target: k.target,
      atSecond: Math.round((k.killedAt - this.plan.begin) / 100) / 10,
      restartedAfterMs: k.restartedAt === null ? null : k.restartedAt - k.killedAt,
      ...(k.kind === 'engine-kill' ? { shards: k.shards ?? [], recoveryMs: k.recoveredAt == null ? null : k.recoveredAt - k.killedAt } : {}),
    }));
  }

  /** Per-kill detail for the JSON result: when each shard was first served, and each change the probes saw (ms after the kill). */
  details(): Array<KillFigure & { killedAt: number; firstServedAfterMs?: Record<number, number>; probes?: Array<{ afterMs: number; gateway: string; served: readonly number[] }> }> {
    return this.figures().map((f, i) => {
      const k = this.kills[i]!;
      if (!k.firstServed) return { ...f, killedAt: k.killedAt };
      return {
        ...f,
        killedAt: k.killedAt,
        firstServedAfterMs: Object.fromEntries(Object.entries(k.firstServed).map(([s, t]) => [s, t - k.killedAt])),
        probes: (k.timeline ?? []).map((c) => ({ afterMs: c.at - k.killedAt, gateway: c.gateway, served: c.served })),
      };
    });
  }

  private async killEngine(target: ChaosProcess): Promise<void> {
    const { plan } = this;
    const survivors = () => plan.engines.filter((e) => e !== target && e.up).map((e) => e.endpoint!);
    const shards = await shardsOf(target, plan.engines.filter((e) => e !== target && e.up), plan.probeIds.length);
    const record: KillRecord = { kind: 'engine-kill', target: target.name, killedAt: Date.now(), restartedAt: null, recoveredAt: null, shards };
    this.kills.push(record);
    await target.kill9();
    plan.log(`kill -9 ${target.name} (it owned shards ${shards.join(', ') || 'none'}); restart in ${plan.restartAfterMs / 1000} s`);
    const restart = sleep(plan.restartAfterMs).then(() => target.start()).then(
      () => void (record.restartedAt = Date.now()),
      (error: Error) => plan.log(`${target.name} did not start again: ${error.message}`),
    );
    const gateways = () => [...survivors(), ...(target.up ? [target.endpoint!] : [])];
    const served = await waitUntilServed({ shards, gateways, namespace: 'default', probeIds: plan.probeIds, timeoutMs: UNRECOVERED_MS });
    record.recoveredAt = served.at;
    record.firstServed = served.firstServed;
    record.timeline = served.timeline;
    await restart;
    const took = served.at === null ? 'not served again' : `served again after ${((served.at - record.killedAt) / 1000).toFixed(1)} s`;
    plan.log(`${target.name}: its shards ${took}; back up after ${record.restartedAt ? ((record.restartedAt - record.killedAt) / 1000).toFixed(1) : '-'} s`);
  }

  private async killBroker(): Promise<void> {
    const { plan } = this;
    const target = `broker-${plan.broker + 1}`;
    const record: KillRecord = { kind: 'broker-kill', target, killedAt: Date.now(), restartedAt: null };
    this.kills.push(record);
    await plan.kafka.killNode(plan.broker);
    plan.log(`kill -9 ${target}; restart in ${plan.brokerDownMs / 1000} s`);
    await sleep(plan.brokerDownMs);
    try {
      await plan.kafka.startNode(plan.broker);
      record.restartedAt = Date.now();
      plan.log(`${target} back in the cluster after ${((Date.now() - record.killedAt) / 1000).toFixed(1)} s`);
    } catch (error) {
      plan.log(`${target} did not start again: ${(error as Error).message.split('\n')[0]}`);
    }
  }
}

/**
 * The shards `target` owns, from its /healthz; when it lists none (a node whose shards all failed
 * drops them from the list) or does not answer, every shard the other nodes do not list: the
 * shards that will need a new owner once it is gone.
 */
async function shardsOf(target: ChaosProcess, others: readonly ChaosProcess[], shardCount: number): Promise<number[]> {
  const own = await ownedShards(target.endpoint!);
  if (own && own.length > 0) return own;
  const theirs = new Set((await Promise.all(others.map((o) => ownedShards(o.endpoint!)))).flatMap((s) => s ?? []));
  return Array.from({ length: shardCount }, (_, s) => s).filter((s) => !theirs.has(s));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
