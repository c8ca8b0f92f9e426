/**
 * `logbook task-queue describe`: a queue's backlog, lag and pollers per partition.
 * @module
 */
import { Command } from 'commander';
import type { TaskKindDescription } from '../task-endpoints/task-queue-description.js';
import { withGatewayOptions, type Action } from './context.js';
import { gatewayRequest } from './gateway-request.js';
import { renderList, type Column } from './output.js';

type Row = { kind: string; partition: number; endOffset: number; committedOffset: number; backlog: number; pollers: number };
const COLUMNS: readonly Column<Row>[] = [
  { heading: 'Kind', value: (r) => r.kind },
  { heading: 'Partition', value: (r) => r.partition },
  { heading: 'Backlog', value: (r) => r.backlog },
  { heading: 'Committed', value: (r) => r.committedOffset },
  { heading: 'End', value: (r) => r.endOffset },
  { heading: 'Pollers', value: (r) => r.pollers },
];

/** `task-queue` and its subcommand. */
export function taskQueueCommand(action: Action): Command {
  const taskQueue = new Command('task-queue').description('inspect task queues');
  taskQueue.addCommand(
    withGatewayOptions(new Command('describe').description('backlog, lag and pollers of each partition of the queue').requiredOption('-t, --task-queue <queue>', 'the queue')).action(
      action(async (c, o) => {
        const path = `/api/v1/namespaces/${encodeURIComponent(c.namespace)}/task-queues/${encodeURIComponent(o.taskQueue as string)}`;
        const described = await gatewayRequest<{ namespace: string; taskQueue: string; kinds: TaskKindDescription[] }>(c, 'GET', path);
        if (c.output !== 'table') {
          c.print(c.output === 'json' ? JSON.stringify(described, null, 2) : JSON.stringify(described));
          return;
        }
        const rows = described.kinds.flatMap((k) => k.partitions.map((p) => ({ kind: k.kind, pollers: k.pollers, ...p })));
        c.print(renderList(rows, 'table', COLUMNS));
      }),
    ),
  );
  return taskQueue;
}
