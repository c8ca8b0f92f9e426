import type { TopicCatalog } from '../topics/catalog.js';
import type { TopicAdmin } from '../topics/log/log.js';
import { ensureTaskTopics } from '../topics/topic-setup.js';

/**
 * Creates the task topics of a namespace and task queue the first time the engine dispatches to
 * them (topic creation is not transactional, so it happens before the batch's transaction).
 */
export class TaskTopics {
  private readonly known = new Map<string, Promise<void>>();

  constructor(
    private readonly admin: TopicAdmin,
    private readonly catalog: TopicCatalog,
  ) {}

  /** Resolves once the queue's topics exist. */
  ensure(namespace: string, taskQueue: string): Promise<void> {
    const id = `${namespace}\u0000${taskQueue}`;
    let pending = this.known.get(id);
    if (!pending) {
      pending = ensureTaskTopics(this.admin, this.catalog, namespace, taskQueue);
      // A failed creation is retried by the next batch rather than remembered.
      pending.catch(() => this.known.delete(id));
      this.known.set(id, pending);
    }
    return pending;
  }
}
