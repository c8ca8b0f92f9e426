import type { TopicCatalog } from './catalog.js';
import { LogbookError } from './errors.js';
import type { TopicAdmin } from './log/log.js';
import { ensureTaskTopics } from './topic-setup.js';

/** Task queues a namespace may have by default (each is four topics). */
export const DEFAULT_MAX_TASK_QUEUES_PER_NAMESPACE = 100;
/** Task queues a deployment may have by default, over every namespace. */
export const DEFAULT_MAX_TASK_QUEUES = 1_000;

/** How many task queues may exist. */
export interface TaskQueueLimits {
  readonly perNamespace: number;
  readonly total: number;
}

/** A task queue that may not be created: its namespace, or the deployment, holds its limit of task queues already. */
export class TaskQueueLimitError extends LogbookError {
  constructor(namespace: string, taskQueue: string, what: string, limit: number, flag: string) {
    super(
      'LimitExceeded',
      `${what} already has ${limit} task queues, its limit, so task queue '${taskQueue}' of namespace ${namespace} cannot be created ` +
        `(each task queue is four topics); use an existing task queue, or raise the limit (${flag})`,
    );
  }
}

/**
 * The task queues that exist, and the creation of new ones on first use (topic creation is not
 * transactional, so it happens before the transaction that writes the first task). Creation is
 * bounded: a namespace has at most `perNamespace` task queues and the deployment `total`, so a
 * caller naming ever new queues (or namespaces) cannot create topics without bound; beyond it a
 * new queue is refused with
 * {@link TaskQueueLimitError}. The count comes from the cluster's topic list (read once, and again
 * before each creation), so every node enforces the same limit.
 */
export class TaskTopics {
  private readonly known = new Map<string, Promise<void>>();
  /** Task queues per namespace, as last listed from the cluster. */
  private listed: Map<string, Set<string>> | undefined;

  private readonly limits: TaskQueueLimits;

  constructor(
    private readonly admin: TopicAdmin,
    private readonly catalog: TopicCatalog,
    limits: Partial<TaskQueueLimits> = {},
  ) {
    this.limits = { perNamespace: limits.perNamespace ?? DEFAULT_MAX_TASK_QUEUES_PER_NAMESPACE, total: limits.total ?? DEFAULT_MAX_TASK_QUEUES };
  }

  /** Resolves once the queue's topics exist; rejects with {@link TaskQueueLimitError} past the limit. */
  ensure(namespace: string, taskQueue: string): Promise<void> {
    const id = `${namespace}\u0000${taskQueue}`;
    let pending = this.known.get(id);
    if (!pending) {
      pending = this.create(namespace, taskQueue);
      // A failed creation (or a refusal) is tried again next time rather than remembered.
      pending.catch(() => this.known.delete(id));
      this.known.set(id, pending);
    }
    return pending;
  }

  private async create(namespace: string, taskQueue: string): Promise<void> {
    const queues = (await this.queuesByNamespace(false)).get(namespace);
    if (!queues?.has(taskQueue)) {
      // Count afresh: other nodes and workers create queues too.
      const listed = await this.queuesByNamespace(true);
      const current = listed.get(namespace) ?? new Set<string>();
      if (!current.has(taskQueue)) this.checkLimits(namespace, taskQueue, current.size, [...listed.values()].reduce((n, q) => n + q.size, 0));
    }
    await ensureTaskTopics(this.admin, this.catalog, namespace, taskQueue);
    const listed = await this.queuesByNamespace(false);
    listed.set(namespace, (listed.get(namespace) ?? new Set()).add(taskQueue));
  }

  private checkLimits(namespace: string, taskQueue: string, inNamespace: number, total: number): void {
    const { perNamespace, total: maxTotal } = this.limits;
    if (inNamespace >= perNamespace) throw new TaskQueueLimitError(namespace, taskQueue, `namespace ${namespace}`, perNamespace, '--max-task-queues-per-namespace');
    if (total >= maxTotal) throw new TaskQueueLimitError(namespace, taskQueue, 'the deployment', maxTotal, '--max-task-queues');
  }

  private async queuesByNamespace(refresh: boolean): Promise<Map<string, Set<string>>> {
    if (this.listed && !refresh) return this.listed;
    const marker = `${this.catalog.prefix}.tasks.`;
    const byNamespace = new Map<string, Set<string>>();
    for (const name of await this.admin.listTopics()) {
      if (!name.startsWith(marker)) continue;
      // <prefix>.tasks.<kind>.<namespace>.<queue>: names and queues hold no dots.
      const [, namespace, queue] = name.slice(marker.length).split('.');
      if (namespace && queue) byNamespace.set(namespace, (byNamespace.get(namespace) ?? new Set()).add(queue));
    }
    this.listed = byNamespace;
    return byNamespace;
  }
}
