/**
 * `TestWorkflowEnvironment` of `logbook/testing`, as Temporal's: an embedded engine and gateway in
 * the test's process, a client and a worker connection for it, and (with
 * {@link TestWorkflowEnvironment.createTimeSkipping}) engine time that jumps to the next timer
 * whenever the test awaits a result and nothing is running.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from '../../sdk/client/compat/client.js';
import { Connection } from '../../sdk/client/compat/connection.js';
import { NativeConnection } from '../../sdk/worker/compat/native-connection.js';
import { durationToMs, type Duration } from '../../sdk/workflow/duration.js';
import { Engine } from '../engine.js';
import { engineHistoryFetcher } from '../engine-history-fetcher.js';
import { createHttpApp } from '../http-app.js';
import { startScheduleWorker } from '../schedules/schedule-worker.js';
import { EngineMetrics } from '../metrics.js';
import { TimeSkipper, VirtualClock } from './time-skipper.js';

/** Options of the environments. */
export interface TestWorkflowEnvironmentOptions {
  /** Default `default`. */
  readonly namespace?: string;
  /** Shards of the embedded engine; default 1 (a test needs no more). */
  readonly shards?: number;
}

/** An engine for tests, in this process. */
export class TestWorkflowEnvironment {
  private constructor(
    /** A client for the environment's engine (its `result()` lets time skip in a time-skipping environment). */
    readonly client: Client,
    /** What `Worker.create` takes to run workers on this engine. */
    readonly nativeConnection: NativeConnection,
    readonly namespace: string,
    /** True for {@link createTimeSkipping}. */
    readonly supportsTimeSkipping: boolean,
    private readonly clock: VirtualClock | undefined,
    private readonly skipper: TimeSkipper | undefined,
    private readonly engine: Engine,
    private readonly scheduler: { stop(graceMs?: number): Promise<void> },
    private readonly server: Server,
    private readonly directory: string,
  ) {}

  /** An environment whose time is real time. */
  static createLocal(options: TestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
    return TestWorkflowEnvironment.create(options, false);
  }

  /**
   * An environment whose time skips: while the test awaits a workflow's `result()` and no workflow
   * task or activity is running, engine time jumps to the next timer (or retry, or timeout);
   * {@link sleep} moves it forward at once. Time never skips while the test does something else,
   * so a signal sent after `env.sleep('10 days')` arrives on day 10.
   */
  static createTimeSkipping(options: TestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
    return TestWorkflowEnvironment.create(options, true);
  }

  private static async create(options: TestWorkflowEnvironmentOptions, timeSkipping: boolean): Promise<TestWorkflowEnvironment> {
    const namespace = options.namespace ?? 'default';
    const directory = await mkdtemp(join(tmpdir(), 'logbook-test-env-'));
    const clock = timeSkipping ? new VirtualClock() : undefined;
    const server = createServer();
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    let engine: Engine;
    try {
      engine = await Engine.start({
        log: { kind: 'embedded', directory: join(directory, 'log') },
        shards: options.shards ?? 1,
        dataDirectory: join(directory, 'node'),
        endpoint,
        ...(clock ? { clock: clock.now } : {}),
      });
      while (!(await engine.health.readiness()).ready) await delay(20);
    } catch (error) {
      server.close();
      await rm(directory, { recursive: true, force: true });
      throw error;
    }
    // Schedules (`env.client.schedule`) are run by the engine's own scheduler worker, as the dev server's are.
    const scheduler = await startScheduleWorker(engine, namespace);
    server.on('request', createHttpApp({ engine, metrics: new EngineMetrics(false).registry, selfEndpoint: endpoint }));
    const skipper = clock ? new TimeSkipper(engine, clock, namespace) : undefined;
    const client = new Client({
      connection: Connection.lazy({ address: endpoint }),
      namespace,
      ...(skipper ? { aroundResultWait: (wait) => skipper.whileUnlocked(wait) } : {}),
    });
    const nativeConnection = NativeConnection.fromParts(engine.workerConnection(), engineHistoryFetcher(engine));
    return new TestWorkflowEnvironment(client, nativeConnection, namespace, timeSkipping, clock, skipper, engine, scheduler, server, directory);
  }

  /** The environment's time, ms since the epoch (real time in a local environment). */
  currentTimeMs(): number {
    return this.clock?.now() ?? Date.now();
  }

  /**
   * Lets `duration` pass: at once in a time-skipping environment (timers due by then fire), in
   * real time in a local one.
   */
  async sleep(duration: Duration): Promise<void> {
    const ms = durationToMs(duration, 'sleep');
    if (!this.clock) {
      await delay(ms);
      return;
    }
    this.clock.advance(ms);
    // One turn of the shard loop (its idle wait), so timers due by now fire before the test goes on.
    await delay(150);
  }

  /** Stops the engine and the gateway and deletes their data; stop the workers that use it first. */
  async teardown(): Promise<void> {
    await this.skipper?.stop();
    await this.scheduler.stop(1_000);
    await new Promise<void>((closed) => this.server.close(() => closed()));
    await this.engine.stop();
    await rm(this.directory, { recursive: true, force: true });
  }
}
