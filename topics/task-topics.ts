import type { TopicCatalog } from './catalog.js';
import { LogbookError } from './errors.js';
import type { TopicAdmin } from './log/log.js';
import { ensureTaskTopics } from './topic-setup.js';

/** Task queues a namespace may have by default (each is four topics). */
export const DEFAULT_MAX_TASK_QUEUES_PER_NAMESPACE = 100;

/** A task queue the namespace may not have: it holds its limit of task queues already. */
export class TaskQueueLimitError extends LogbookError {
  constructor(namespace: string, taskQueue: string, limit: number) {
    super(
      'LimitExceeded',
      `namespace ${namespace} already has ${limit} task queues, its limit, so task queue '${taskQueue}' cannot be created ` +
        `(each task queue is four topics); use an existing task queue, or raise the limit (--max-task-queues)`,
    );
  }
}

/**
 * The task queues that exist, and the creation of new ones on first use (topic creation is not
 * transactional, so it happens before the transaction that writes the first task). Creation is
 * bounded: a namespace has at most `maxPerNamespace` task queues, so a caller naming ever new
 * queues cannot create topics without bound; beyond it a new queue is refused with
 * {@link TaskQueueLimitError}. The count comes from the cluster's topic list (read once, and again
 * before each creation), so every node enforces the same limit.
 */
export class TaskTopics {
  private readonly known = new Map<string, Promise<void>>();
  /** Task queues per namespace, as last listed from the cluster. */
  private listed: Map<string, Set<string>> | undefined;

  constructor(
    private readonly admin: TopicAdmin,
    private readonly catalog: TopicCatalog,
    private readonly maxPerNamespace = DEFAULT_MAX_TASK_QUEUES_PER_NAMESPACE,
  ) {}

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
      const current = (await this.queuesByNamespace(true)).get(namespace) ?? new Set<string>();
      if (!current.has(taskQueue) && current.size >= this.maxPerNamespace) throw new TaskQueueLimitError(namespace, taskQueue, this.maxPerNamespace);
    }
    await ensureTaskTopics(this.admin, this.catalog, namespace, taskQueue);
    const listed = await this.queuesByNamespace(false);
    listed.set(namespace, (listed.get(namespace) ?? new Set()).add(taskQueue));
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
