import { setTimeout as delay } from 'node:timers/promises';
import { runtimeLogger } from '../../common/logger.js';
import { GatewayAccessDeniedError, GatewayRefusedError, type GatewayTaskClient, type HttpTaskKind, type PolledTask } from './gateway-task-client.js';

/** How one kind of task is polled and run. */
export interface TaskPollersOptions<T> {
  readonly client: GatewayTaskClient;
  readonly kind: HttpTaskKind;
  readonly identity: string;
  /** Long polls kept open at once. */
  readonly pollers: number;
  /** Tasks run at once; a poller waits for a free slot before it polls. */
  readonly slots: number;
  readonly run: (task: PolledTask<T>) => Promise<void>;
}

/** The pause after a poll that failed, doubled up to {@link MAX_PAUSE_MS} while the gateway stays away. */
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 10_000;

/**
 * Long-polls one kind of task from the gateway with a few pollers and runs each task in a slot;
 * a poll that fails (the gateway restarting) is logged once per outage and tried again after a
 * growing pause. {@link stop} opens no new poll but lets the open ones end by themselves — a poll
 * the gateway answers has already claimed its task, so cutting it off would strand the task until
 * its timeout — runs what they hand out, and waits for the running tasks.
 */
export class TaskPollers<T> {
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private free: number;
  private readonly slotWaiters: Array<() => void> = [];
  private loops: Promise<void>[] = [];
  private outage = false;

  constructor(private readonly options: TaskPollersOptions<T>) {
    this.free = options.slots;
  }

  start(): void {
    this.loops = Array.from({ length: Math.max(1, Math.min(this.options.pollers, this.options.slots)) }, () => this.loop());
  }

  /**
   * Stops polling; resolves once the open polls ended and the running tasks finished, or once
   * `graceMs` passed.
   * @returns true when every task finished within the grace
   */
  async stop(graceMs: number): Promise<boolean> {
    this.stopping.abort();
    this.slotWaiters.splice(0).forEach((wake) => wake());
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    const finished = (async () => {
      await Promise.all(this.loops);
      await Promise.allSettled([...this.running]);
      return true as const;
    })();
    try {
      return await Promise.race([finished, graceOver]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async loop(): Promise<void> {
    const { client, kind, identity } = this.options;
    const stopping = this.stopping.signal;
    let pause = FIRST_PAUSE_MS;
    while (!stopping.aborted) {
      if (!(await this.slot())) return;
      let task: PolledTask<T> | undefined;
      try {
        // Not cut off by a stop: see the class comment.
        task = await client.poll<T>(kind, identity);
        if (this.outage) runtimeLogger().info(`${kind} task polls reach the gateway again`);
        this.outage = false;
        pause = FIRST_PAUSE_MS;
      } catch (error) {
        this.release();
        this.report(error, stopping.aborted);
        if (stopping.aborted) return;
        this.outage = true;
        await delay(pause, undefined, { signal: stopping }).catch(() => undefined);
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
        continue;
      }
      if (!task) {
        this.release();
        continue;
      }
      const running = this.options
        .run(task)
        .catch((error: unknown) => runtimeLogger().error(`${kind} task could not be answered: ${(error as Error).message ?? String(error)}`))
        .finally(() => {
          this.running.delete(running);
          this.release();
        });
      this.running.add(running);
    }
  }

  /**
   * Logs a failed poll. Refused credentials stay refused until the key changes (`setApiKey`): one
   * line until a call is served again, said even while stopping (a worker failing at start on them
   * is). Any other refusal will come again too: said loudly each time. An outage: once.
   */
  private report(error: unknown, stopping: boolean): void {
    const { kind } = this.options;
    if (error instanceof GatewayAccessDeniedError) {
      if (!error.repeated) runtimeLogger().error(error.message);
    } else if (stopping) {
      return;
    } else if (error instanceof GatewayRefusedError) {
      runtimeLogger().error(`${kind} task poll refused: ${error.message}`);
    } else if (!this.outage) {
      runtimeLogger().warn(`${kind} task poll failed, retrying: ${(error as Error).message ?? String(error)}`);
    }
  }

  /** Takes a slot; false when the pollers stopped while waiting for one. */
  private async slot(): Promise<boolean> {
    while (this.free === 0) {
      if (this.stopping.signal.aborted) return false;
      await new Promise<void>((wake) => this.slotWaiters.push(wake));
    }
    if (this.stopping.signal.aborted) return false;
    this.free--;
    return true;
  }

  private release(): void {
    this.free++;
    this.slotWaiters.shift()?.();
  }
}
