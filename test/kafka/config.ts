/**
 * KRaft broker configuration for local test brokers: cluster ids, free ports and
 * `server.properties` contents.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';

/**
 * A KRaft cluster id: 16 random bytes, base64url without padding (22 chars). Kafka's
 * own `Uuid` never starts with '-' because the tools would read it as an option.
 */
export function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * Finds `count` distinct free TCP ports on 127.0.0.1 by binding port 0. All sockets stay
 * open until every port is known so the OS cannot hand out the same port twice.
 * (Another process could still grab one before the broker binds it; that race is rare
 * and surfaces as a clear "Address already in use" in the broker log.)
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('could not read bound port');
      ports.push(address.port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** What differs between the nodes of one cluster. */
export interface NodeConfig {
  /** Kafka `node.id`, 1-based. */
  nodeId: number;
  /** PLAINTEXT (client) port. */
  port: number;
  /** CONTROLLER (KRaft quorum) port. */
  controllerPort: number;
  /** The broker's `log.dirs` (data, including the KRaft metadata log). */
  logDir: string;
  /** SASL_SSL (client) port, when the node has a secured listener too. */
  securedPort?: number;
}

/**
 * `server.properties` for one combined broker+controller node.
 *
 * @param node this node
 * @param cluster every node of the cluster (this one included), for `controller.quorum.voters`
 * @param extra additional or overriding properties
 */
export function serverProperties(node: NodeConfig, cluster: NodeConfig[], extra: Record<string, string> = {}): string {
  const nodes = cluster.length;
  // A single node can only hold one replica; a 3-node cluster mirrors production durability
  // (RF 3, min ISR 2) so failover tests exercise the same acks=all rules.
  const rf = nodes >= 3 ? 3 : 1;
  const minIsr = nodes >= 3 ? 2 : 1;
  // Brokers talk to each other in plaintext; only clients may use the secured listener.
  const secured = node.securedPort ? `,SASL_SSL://127.0.0.1:${node.securedPort}` : '';
  const props: Record<string, string | number> = {
    'process.roles': 'broker,controller',
    'node.id': node.nodeId,
    'controller.quorum.voters': cluster.map((n) => `${n.nodeId}@127.0.0.1:${n.controllerPort}`).join(','),
    listeners: `PLAINTEXT://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}${secured}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${node.port}${secured}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': `CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT${node.securedPort ? ',SASL_SSL:SASL_SSL' : ''}`,
    'log.dirs': node.logDir,
    // Without these a small cluster never creates __consumer_offsets / __transaction_state
    // and consumers wait for a coordinator forever, silently.
    'offsets.topic.replication.factor': rf,
    'offsets.topic.num.partitions': 1,
    'transaction.state.log.replication.factor': rf,
    'transaction.state.log.min.isr': minIsr,
    'transaction.state.log.num.partitions': 1,
    'default.replication.factor': rf,
    'min.insync.replicas': minIsr,
    'num.partitions': 1,
    'num.network.threads': 2,
    'num.io.threads': 2,
    // Tests join groups constantly; the default 3 s delay would dominate their runtime.
    'group.initial.rebalance.delay.ms': 0,
    // Room for 2 MB payloads plus envelope and batch overhead.
    'message.max.bytes': 4194304,
    'replica.fetch.max.bytes': 4194304,
    // Abort timed-out transactions within a second, so zombie/timeout tests stay quick.
    // (transaction.remove.expired.transaction.cleanup.interval.ms keeps its default.)
    'transaction.abort.timed.out.transaction.cleanup.interval.ms': 1000,
    // The engine creates its topics explicitly; a typo must fail rather than invent a topic.
    'auto.create.topics.enable': 'false',
    ...extra,
  };
  return Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';
}
