import type { TopicCatalog } from '../../topics/catalog.js';
import type { Log } from '../../topics/log/log.js';
import type { DataConverter } from '../../topics/payload/index.js';
import { defaultDataConverter } from '../../topics/payload/index.js';
import type { Serde } from '../../topics/serde/index.js';
import { SingleObjectSerde } from '../../topics/serde/index.js';
import { ReplyListener } from '../../topics/replies/reply-listener.js';
import { CommandClient } from './command-client.js';
import type { RunLocator } from './query-target.js';

/** A command client connected straight to the log, and how to close it. */
export interface LogClient {
  readonly client: CommandClient;
  close(): Promise<void>;
}

/**
 * Connects a client that speaks to the engine through Kafka itself (no gateway): it writes commands
 * and reads its replies from the replies topic. For services that already run next to Kafka.
 * Queries need the run's state, which lives in the shard stores: pass `locateRun` (for example
 * `gatewayRunLocator(address)`) to use `client.query`.
 */
export async function connectLogClient(
  log: Log,
  catalog: TopicCatalog,
  options: { serde?: Serde; dataConverter?: DataConverter; locateRun?: RunLocator } = {},
): Promise<LogClient> {
  const serde = options.serde ?? new SingleObjectSerde();
  const replies = new ReplyListener(log, catalog, serde);
  await replies.start();
  return {
    client: new CommandClient(log, catalog, serde, replies, options.dataConverter ?? defaultDataConverter, options.locateRun ? { locateRun: options.locateRun } : {}),
    close: () => replies.stop(),
  };
}
