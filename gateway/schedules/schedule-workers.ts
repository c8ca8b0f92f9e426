/**
 * The scheduler workers of an engine node: one per namespace in the registry (`default` and every
 * registered one), started when a namespace appears on the registry topic, so a schedule created in
 * any registered namespace is run whichever node picks up its tasks.
 * @module
 */
import type { Worker } from '../../sdk/worker/worker.js';
import type { Engine } from '../engine.js';
import { startScheduleWorker } from './schedule-worker.js';

/** The running scheduler workers of one node, by namespace. */
export class ScheduleWorkers {
  readonly #workers = new Map<string, Promise<Worker>>();
  #unsubscribe: () => void = () => undefined;
  #stopped = false;

  private constructor(private readonly engine: Engine) {}

  /**
   * Starts a scheduler worker for every namespace the registry holds now and for each one registered later.
   * @example
   * const schedules = await ScheduleWorkers.start(engine);   // … await schedules.stop(5_000) on shutdown
   */
  static async start(engine: Engine): Promise<ScheduleWorkers> {
    const workers = new ScheduleWorkers(engine);
    workers.#unsubscribe = engine.namespaces.onChange(() => void workers.#startNew().catch((error: unknown) => {
      console.error(`schedules: could not start a scheduler worker: ${(error as Error).message}`);
    }));
    await workers.#startNew();
    return workers;
  }

  /** The namespaces this node runs schedules for. */
  namespaces(): string[] {
    return [...this.#workers.keys()].sort();
  }

  /** Stops every scheduler worker, waiting up to `timeoutMs` for tasks in progress. */
  async stop(timeoutMs: number): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    const workers = await Promise.allSettled(this.#workers.values());
    await Promise.all(workers.flatMap((w) => (w.status === 'fulfilled' ? [w.value.stop(timeoutMs)] : [])));
  }

  async #startNew(): Promise<void> {
    if (this.#stopped) return;
    for (const { name } of this.engine.namespaces.list()) {
      if (!this.#workers.has(name)) this.#workers.set(name, startScheduleWorker(this.engine, name));
    }
    await Promise.all(this.#workers.values());
  }
}
