import { Router } from 'express';
import { activityWorkersGroupId, queryWorkersGroupId, workflowWorkersGroupId } from '../../topics/catalog.js';
import { consumerLag } from '../../topics/log/consumer-lag.js';
import type { Engine } from '../engine.js';
import { HttpError } from '../http-errors.js';
import { QUEUE, queueOf } from './task-queue-path.js';
import { Allow } from '../auth/route-rules.js';

/** One partition of a task topic: how far its worker group has come. */
export interface TaskPartitionDescription {
  readonly partition: number;
  /** The read_committed end of the partition. */
  readonly endOffset: number;
  /** The group's committed position (the next record it will read). */
  readonly committedOffset: number;
  /** Tasks written and not yet taken by the group. */
  readonly backlog: number;
}

/** One kind of task of a queue: its topic, the workers of its group, and each partition's backlog. */
export interface TaskKindDescription {
  readonly kind: 'workflow' | 'activity' | 'query';
  readonly topic: string;
  readonly group: string;
  /** Members of the group now: Kafka workers, and each gateway bridging HTTP pollers. */
  readonly pollers: number;
  readonly backlog: number;
  readonly partitions: TaskPartitionDescription[];
}

/**
 * `GET …/task-queues/{queue}`: the queue's workflow, activity and query topics, with the pollers
 * of each worker group and the backlog and lag of every partition (read without joining a group).
 * 404 `TaskQueueNotFound` for a queue that has no topics (nothing was ever sent to it).
 */
export function taskQueueDescriptionRoutes(engine: Engine): Router {
  const router = Router();
  router.get(QUEUE, Allow.reader, async (req, res) => {
    const { namespace, taskQueue } = queueOf(req);
    const { catalog, log } = engine;
    const topics = catalog.taskTopics(namespace, taskQueue);
    const groups = {
      workflow: workflowWorkersGroupId(catalog, namespace, taskQueue),
      activity: activityWorkersGroupId(catalog, namespace, taskQueue),
      query: queryWorkersGroupId(catalog, namespace, taskQueue),
    };
    const described = await log.admin.describeTopics([topics.workflow, topics.activity, topics.query]);
    if (!described.has(topics.workflow)) throw new HttpError(404, 'TaskQueueNotFound', `task queue '${taskQueue}' of namespace '${namespace}' has no topics: no task was ever sent to it`);
    const kinds: TaskKindDescription[] = [];
    for (const kind of ['workflow', 'activity', 'query'] as const) {
      const topic = topics[kind];
      const partitionCount = described.get(topic)?.partitions ?? 0;
      const [pollers, committed] = await Promise.all([log.admin.groupMembers(groups[kind]), log.admin.groupOffsets(groups[kind], topic)]);
      const partitions: TaskPartitionDescription[] = [];
      for (let partition = 0; partition < partitionCount; partition++) {
        const committedOffset = committed.get(partition) ?? 0;
        const lag = await consumerLag(log, topic, partition, committedOffset);
        partitions.push({ partition, endOffset: lag.endOffset, committedOffset, backlog: lag.records });
      }
      kinds.push({ kind, topic, group: groups[kind], pollers, backlog: partitions.reduce((sum, p) => sum + p.backlog, 0), partitions });
    }
    res.json({ namespace, taskQueue, kinds });
  });
  return router;
}
