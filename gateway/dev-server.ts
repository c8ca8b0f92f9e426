/**
 * The dev server: `logbook server start-dev` (`npm start`).
 *
 *   logbook server start-dev [--port 8233] [--host 127.0.0.1] [--advertise URL] [--data .data] [--shards 8]
 *                          [--kafka host:port,…] [--prefix logbook] [--replication-factor N] [--min-insync-replicas N]
 *                          [--no-worker] [--require-namespaces] [--ingress FILE] [--log-format text|json] [--task-token-key HEX]
 *                          [--kafka-sasl-mechanism plain|scram-sha-256|scram-sha-512 --kafka-sasl-username U
 *                           --kafka-sasl-password P] [--kafka-tls] [--kafka-tls-ca FILE]
 *                          [--kafka-tls-cert FILE --kafka-tls-key FILE]
 *                          [--schema-registry URL [--schema-registry-username U --schema-registry-password P]]
 *                          [--auth [--auth-jwt-secret S] [--auth-jwks FILE] [--auth-issuer I] [--auth-audience A]
 *                           [--auth-mtls-principals FILE]] [--tls-cert FILE --tls-key FILE [--tls-client-ca FILE]]
 *
 * It runs one engine node with its HTTP gateway, UI and metrics, plus the example workers
 * (order and travel workflows), on the embedded log by default; `--kafka` (or LOGBOOK_KAFKA_BROKERS)
 * runs the same node against a Kafka cluster. The topics it creates get the replication factor and
 * `min.insync.replicas` given (or LOGBOOK_REPLICATION_FACTOR / LOGBOOK_MIN_INSYNC_REPLICAS), by default
 * 3 and 2 on a cluster of three brokers or more and one copy per broker below that. `--ingress`
 * (or LOGBOOK_INGRESS) loads ingress mappings that turn records of business topics into workflow
 * starts and signals (README "Ingress from business topics"). The `--kafka-sasl-*` and `--kafka-tls*`
 * flags (or LOGBOOK_KAFKA_SASL_* and LOGBOOK_KAFKA_TLS*) secure every Kafka client of the node.
 * `--auth` turns on authentication and authorisation at the gateway (README "Security"); `--tls-*`
 * serve it over HTTPS, asking for client certificates with `--tls-client-ca`.
 */
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AUTH_FLAGS, authOptionsFromFlags, describeAuth } from './auth/auth-options.js';
import { LISTENER_TLS_FLAGS, listenerTlsFromFlags } from './auth/listener-tls.js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from './engine.js';
import { createHttpApp } from './http-app.js';
import { flushAuditTrail } from './audit/audit-trail.js';
import { EngineMetrics } from './metrics.js';
import { shardLogLines } from './shard-log.js';
import { serverLog } from './server-log.js';
import { taskTokenKeyOf } from './task-endpoints/token-signer.js';
import { startExampleWorkers } from './example-workers.js';
import { ScheduleWorkers } from './schedules/schedule-workers.js';
import { startShardLagSampler } from './shard-lag-sampler.js';
import { stopTaskBridges } from './task-endpoints/task-bridges.js';
import { loadIngressFile } from '../processors/ingress/ingress-file.js';
import { describeKafkaSecurity } from '../topics/log/kafka-security.js';
import { KAFKA_SECURITY_FLAGS, kafkaSecurityFromFlags } from './kafka-security-flags.js';
import { SCHEMA_REGISTRY_FLAGS, registrySerdeFromFlags } from './schema-registry-flags.js';

/** The flags of the dev server, as `logbook server start-dev --help` prints them. */
export const DEV_SERVER_USAGE = `usage:
  logbook server start-dev [--port 8233] [--host 127.0.0.1] [--advertise URL] [--data .data] [--shards 8]
                         [--kafka host:port,…] [--prefix logbook] [--replication-factor N] [--min-insync-replicas N]
                         [--no-worker] [--require-namespaces] [--ingress FILE] [--log-format text|json] [--task-token-key HEX]
                         [--kafka-sasl-mechanism plain|scram-sha-256|scram-sha-512 --kafka-sasl-username U
                          --kafka-sasl-password P] [--kafka-tls] [--kafka-tls-ca FILE]
                         [--kafka-tls-cert FILE --kafka-tls-key FILE]
                         [--schema-registry URL [--schema-registry-username U --schema-registry-password P]]
                         [--auth [--auth-jwt-secret S] [--auth-jwks FILE] [--auth-issuer I] [--auth-audience A]
                          [--auth-mtls-principals FILE]] [--tls-cert FILE --tls-key FILE [--tls-client-ca FILE]]

Each flag also has an environment variable (README, Configuration); LOGBOOK_LOG_FORMAT=json for JSON logs.`;

/** Flags that do not fit or go together: the caller's mistake (the CLI's exit 2). */
export class DevServerUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevServerUsageError';
  }
}

/**
 * Runs one engine node with its gateway, UI, metrics and schedules (and the example workers unless
 * `--no-worker`) until SIGINT or SIGTERM: what `logbook server start-dev` and `npm start` run.
 * `--help` prints the flags instead.
 * @returns `help` when it printed the flags, `running` once the node serves
 * @throws DevServerUsageError naming the flag for settings that do not fit or go together; the
 *   engine's own error when it cannot start (the brokers do not answer, the data is another's)
 */
export async function runDevServer(argv: string[]): Promise<'help' | 'running'> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(DEV_SERVER_USAGE);
    return 'help';
  }
  const phase = { starting: false };
  try {
    await startNode(argv, phase);
    return 'running';
  } catch (error) {
    if (!phase.starting) throw new DevServerUsageError(error instanceof Error ? error.message : String(error));
    throw error;
  }
}

async function startNode(argv: string[], phase: { starting: boolean }): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.LOGBOOK_PORT ?? '8233' },
      host: { type: 'string', default: process.env.LOGBOOK_HOST ?? '127.0.0.1' },
      advertise: { type: 'string', default: process.env.LOGBOOK_ADVERTISED_URL ?? '' },
      data: { type: 'string', default: process.env.LOGBOOK_DATA ?? '.data' },
      shards: { type: 'string', default: process.env.LOGBOOK_SHARDS ?? '8' },
      kafka: { type: 'string', default: process.env.LOGBOOK_KAFKA_BROKERS ?? '' },
      // Several deployments can share one cluster, each under its own topic, group and id prefix.
      prefix: { type: 'string', default: process.env.LOGBOOK_PREFIX ?? '' },
      'replication-factor': { type: 'string', default: process.env.LOGBOOK_REPLICATION_FACTOR ?? '' },
      'min-insync-replicas': { type: 'string', default: process.env.LOGBOOK_MIN_INSYNC_REPLICAS ?? '' },
      'no-worker': { type: 'boolean', default: false },
      'max-task-queues': { type: 'string', default: process.env.LOGBOOK_MAX_TASK_QUEUES ?? '' },
      'max-task-queues-per-namespace': { type: 'string', default: process.env.LOGBOOK_MAX_TASK_QUEUES_PER_NAMESPACE ?? '' },
      // Temporal's behaviour: calls in a namespace nobody registered get 404 NamespaceNotFound.
      'require-namespaces': { type: 'boolean', default: process.env.LOGBOOK_REQUIRE_NAMESPACES === '1' },
      ingress: { type: 'string', default: process.env.LOGBOOK_INGRESS ?? '' },
      'log-format': { type: 'string', default: process.env.LOGBOOK_LOG_FORMAT ?? 'text' },
      // The gateways of one deployment share it, so any of them takes a task token another issued.
      'task-token-key': { type: 'string', default: process.env.LOGBOOK_TASK_TOKEN_KEY ?? '' },
      ...KAFKA_SECURITY_FLAGS,
      ...SCHEMA_REGISTRY_FLAGS,
      ...AUTH_FLAGS,
      ...LISTENER_TLS_FLAGS,
    },
  });
  const log = serverLog(values['log-format']!);
  const taskTokenKey = values['task-token-key'] ? taskTokenKeyOf(values['task-token-key']) : undefined;
  const registry = registrySerdeFromFlags(values);
  const security = kafkaSecurityFromFlags(values);
  const tls = listenerTlsFromFlags(values);
  const auth = authOptionsFromFlags(values, tls?.clientCertificates ?? false);
  const ingress = values.ingress ? loadIngressFile(resolve(values.ingress)) : [];
  // Business topics live in the organisation's cluster; nothing outside this process can write the embedded log.
  if (ingress.length > 0 && !values.kafka) throw new Error('--ingress needs --kafka (or LOGBOOK_KAFKA_BROKERS): the ingress reads business topics from a Kafka cluster');
  const port = Number(values.port);
  // Other nodes forward reads to this URL: in a cluster it must be reachable from them.
  const endpoint = values.advertise || `${tls ? 'https' : 'http'}://${values.host === '0.0.0.0' ? '127.0.0.1' : values.host}:${port}`;
  const data = resolve(values.data!);
  const kafka = values.kafka ? values.kafka.split(',') : undefined;
  if (registry && !kafka) throw new Error('--schema-registry needs --kafka (or LOGBOOK_KAFKA_BROKERS): the embedded log keeps single-object encoding');
  // Each node would sign its calls to the others with a key of its own, and every forwarded read would be refused.
  if (auth && kafka && !taskTokenKey) throw new Error('--auth with --kafka needs --task-token-key (LOGBOOK_TASK_TOKEN_KEY), the same on every node: the nodes of a deployment sign their calls to each other with it');
  if (security && !kafka) throw new Error('the --kafka-sasl-* and --kafka-tls* settings need --kafka (or LOGBOOK_KAFKA_BROKERS): the embedded log has no network clients');
  const metrics = new EngineMetrics();
  const shardLog = shardLogLines((line, shard, level) => log[level](line, { shard }), metrics);
  const ingressMetrics = metrics.ingressObserver();
  log.info(kafka ? `connecting to Kafka at ${kafka.join(', ')} (${describeKafkaSecurity(security)})…` : `starting the embedded engine in ${data}…`);
  if (registry) log.info(`values in the Confluent wire format through the schema registry at ${registry.shown}`);
  phase.starting = true;
  const engine = await Engine.start({
    log: kafka ? { kind: 'kafka', brokers: kafka, ...(security ? { security } : {}) } : { kind: 'embedded', directory: resolve(data, 'log') },
    shards: Number(values.shards),
    ...(values.prefix ? { prefix: values.prefix } : {}),
    ...(registry ? { serde: registry.serde } : {}),
    replicationFactor: positiveFlag('--replication-factor (LOGBOOK_REPLICATION_FACTOR)', values['replication-factor']),
    minInsyncReplicas: positiveFlag('--min-insync-replicas (LOGBOOK_MIN_INSYNC_REPLICAS)', values['min-insync-replicas']),
    dataDirectory: resolve(data, 'node'),
    endpoint,
    namespaces: { requireRegistration: values['require-namespaces'] ?? false },
    taskQueueLimits: {
      ...optionalEntry('total', positiveFlag('--max-task-queues (LOGBOOK_MAX_TASK_QUEUES)', values['max-task-queues'])),
      ...optionalEntry('perNamespace', positiveFlag('--max-task-queues-per-namespace (LOGBOOK_MAX_TASK_QUEUES_PER_NAMESPACE)', values['max-task-queues-per-namespace'])),
    },
    ...(taskTokenKey ? { deploymentKey: taskTokenKey } : {}),
    onProgress: (line) => log.info(line),
    onBatch: (shard, result) => metrics.recordBatch(shard, result),
    onShardTransition: shardLog.onTransition,
    onRestoreProgress: shardLog.onRestoreProgress,
    ingress,
    ingressObserver: {
      ...ingressMetrics,
      onError: (mapping, partition, error) => {
        ingressMetrics.onError?.(mapping, partition, error);
        const reason = error instanceof Error ? error.message : String(error);
        log.error(partition < 0 ? `ingress '${mapping.name}' could not start: ${reason}; trying again in a few seconds` : `ingress '${mapping.name}' partition ${partition}: ${reason}; retrying from the committed position`, { ingress: mapping.name, ...(partition < 0 ? {} : { partition }) });
      },
    },
  });
  for (const mapping of ingress) log.info(`ingress '${mapping.name}': ${mapping.sourceTopic} (${mapping.format}) → ${mapping.action} in namespace ${mapping.namespace}`);
  metrics.watchIngress(() => engine.ingress.sources);
  if (kafka) {
    const { replicationFactor, minInsyncReplicas } = engine.catalog.replication;
    log.info(`topics '${engine.catalog.prefix}.*': replication factor ${replicationFactor}, min.insync.replicas ${minInsyncReplicas} (existing topics keep theirs)`);
  }
  metrics.watchShards(() => engine.node.shardReports(), engine.catalog.shards);
  const app = createHttpApp({ engine, metrics: metrics.registry, selfEndpoint: endpoint, workerReports: (report) => metrics.recordWorkerReport(report), ...(taskTokenKey ? { taskTokenKey } : {}), ...(auth ? { auth } : {}) });
  const server = tls ? createHttpsServer(tls.serverOptions, app) : createServer(app);
  if (auth) log.info(`authentication on: ${describeAuth(auth)}`);
  try {
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(port, values.host, () => {
        server.off('error', fail);
        ready();
      });
    });
  } catch (error) {
    // A busy port: the engine started for nothing; stop it so the caller's one-line error is the end.
    await stopTaskBridges(engine);
    await engine.stop();
    throw error;
  }
  const workers = values['no-worker'] ? [] : await startExampleWorkers(engine, metrics);
  // Schedules run on every node, examples or not: they are part of the engine.
  const schedules = await ScheduleWorkers.start(engine);
  const stopLagSampler = startShardLagSampler(engine, metrics);
  log.info(`Logbook is running: gateway and UI on ${endpoint} (metrics on ${endpoint}/metrics)`);
  log.info(`Start an order:  curl -s -X POST ${endpoint}/api/v1/namespaces/default/workflows -H 'content-type: application/json' -d '{"workflowId":"order-1","workflowType":"order","taskQueue":"orders","args":[{"orderId":"1","sku":"book","quantity":1,"amountCents":2500,"phone":"+100","packTimeout":"1h","ratingDelay":"5s"}]}'`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log.info('stopping…');
    stopLagSampler();
    // Shards first: the other nodes serve them while this one drains its workers (up to 5 s).
    await engine.handOverShards();
    await Promise.all([...workers.map((w) => w.stop(5_000)), schedules.stop(5_000)]);
    server.close();
    await stopTaskBridges(engine);
    // The records of the last calls answered are still being written; the engine's producer goes with it.
    await flushAuditTrail(app);
    await engine.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A flag that must be a positive integer when given (empty: not given). */
function positiveFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be a positive integer, got '${value}'`);
  return n;
}

/** `{ [key]: value }`, or nothing when the flag was not given. */
function optionalEntry<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

