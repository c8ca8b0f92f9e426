/**
 * Starts a real Apache Kafka broker (KRaft, one or three nodes) on loopback for tests.
 * The jars come from {@link assembleKafka}; each node is a plain `java kafka.Kafka` process.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// Test tooling only: the engine itself reaches Kafka through topics/, never kafkajs directly.
import { Kafka, logLevel } from '../../topics/log/kafka/kafkajs.js';
import { assembleKafka, logJvmArgsFor, requireCommand, javaBin, resolveKafkaVersion, versionOfLibDir } from './assemble.js';
import { freePorts, newClusterId, serverProperties, type NodeConfig } from './config.js';
import { runJava, spawnJava, terminate, type JavaProcess } from './processes.js';
import { scramFormatArguments, securedListenerConfig, type SecuredListener } from './secured-listener.js';

/** Options for {@link startKafka}. */
export interface StartKafkaOptions {
  /** 1 (default) or 3 combined broker+controller nodes. */
  nodes?: 1 | 3;
  /** Kafka version; defaults as in {@link assembleKafka}. */
  version?: string;
  /** Use this assembled lib dir; defaults to env `LOGBOOK_KAFKA_LIB` when its version matches, else assembles. */
  libDir?: string;
  /** Client port of the first node (a free port when absent). */
  port?: number;
  /** Parent directory for node data and logs. Default: a fresh temp dir, deleted by `stop()`. */
  dataDir?: string;
  /** Extra or overriding `server.properties` entries for every node. */
  extraConfig?: Record<string, string>;
  /** How long to wait for the cluster to answer metadata requests. Default 90 s. */
  readyTimeoutMs?: number;
  /** Leave the JVMs running after this process exits (developer CLI). */
  detached?: boolean;
  /** Receives human-readable progress lines. */
  onProgress?: (line: string) => void;
  /** Also open a SASL_SSL listener on every node (see `secured-listener.ts`). */
  secured?: boolean;
}

/** A running local cluster. */
export interface RunningKafka {
  /** `127.0.0.1:port` of every node, index i being node.id i+1. */
  brokers: string[];
  /** The SASL_SSL listener, when started with `secured`. */
  secured?: SecuredListener;
  version: string;
  nodes: number;
  dataDir: string;
  /** Pids of the node JVMs currently running (a stopped node is absent). */
  readonly pids: number[];
  /** Stops every node (SIGTERM, then SIGKILL on timeout) and deletes a temp data dir. */
  stop(): Promise<void>;
  /** Stops node `index` (0-based) keeping its data: gracefully, or as a crash with `hard`. */
  stopNode(index: number, opts?: { hard?: boolean }): Promise<void>;
  /** SIGKILLs node `index`: shorthand for `stopNode(index, { hard: true })`. */
  killNode(index: number): Promise<void>;
  /** Restarts a stopped node `index` on its old ports and data; resolves once it is back in the cluster. */
  startNode(index: number): Promise<void>;
}

interface NodeState extends NodeConfig {
  dir: string;
  propsFile: string;
  logFile: string;
  process?: JavaProcess;
}

/** Resolves which lib dir and version to run, assembling only when needed. */
async function resolveLib(options: StartKafkaOptions): Promise<{ libDir: string; version: string; logJvmArgs: string[] }> {
  const fromEnv = options.libDir ?? process.env.LOGBOOK_KAFKA_LIB;
  if (fromEnv) {
    const version = await versionOfLibDir(fromEnv);
    if (version && (options.libDir || resolveKafkaVersion(options.version) === version)) {
      return { libDir: fromEnv, version, logJvmArgs: logJvmArgsFor(dirname(fromEnv), version) };
    }
    if (options.libDir) throw new Error(`${fromEnv} is not an assembled Kafka lib dir (no assembled.json next to it)`);
  }
  return assembleKafka({ version: options.version, onProgress: options.onProgress });
}

/** Last lines of a node's console log, for error messages. */
async function tail(file: string, lines = 40): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '(no log written)');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls with a kafkajs admin client until every expected node id is in the cluster
 * metadata. Fails fast, with the log tail, when a node's JVM exits.
 */
async function waitReady(brokers: string[], nodes: NodeState[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const kafka = new Kafka({
    clientId: 'logbook-test-readiness',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
  });
  let lastError = 'no answer yet';
  for (;;) {
    for (const node of nodes) {
      if (node.process?.exitStatus !== undefined) {
        throw new Error(`Kafka node ${node.nodeId} exited during start-up. Tail of ${node.logFile}:\n${await tail(node.logFile)}`);
      }
    }
    const admin = kafka.admin();
    try {
      await admin.connect();
      const { brokers: seen } = await admin.describeCluster();
      const ids = new Set(seen.map((b) => b.nodeId));
      const missing = nodes.filter((n) => !ids.has(n.nodeId));
      if (missing.length === 0) return;
      lastError = `waiting for node(s) ${missing.map((n) => n.nodeId).join(', ')}`;
    } catch (e) {
      lastError = (e as Error).message;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      const logs = await Promise.all(nodes.map(async (n) => `--- tail of ${n.logFile}:\n${await tail(n.logFile)}`));
      throw new Error(`Kafka did not become ready within ${timeoutMs / 1000} s (${lastError}).\n${logs.join('\n')}`);
    }
    await sleep(250);
  }
}

/**
 * Starts a local KRaft Kafka cluster on free loopback ports and waits until every node
 * answers metadata requests.
 */
export async function startKafka(options: StartKafkaOptions = {}): Promise<RunningKafka> {
  const started = Date.now();
  const nodeCount = options.nodes ?? 1;
  const { libDir, version, logJvmArgs } = await resolveLib(options);
  requireCommand(javaBin(), ['-version'], 'Java 17+');
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'logbook-kafka-')));
  const cleanupDir = ownsDataDir ? dataDir : undefined;
  const perNode = options.secured ? 3 : 2;
  const ports = options.port ? [options.port, ...(await freePorts(nodeCount * perNode - 1))] : await freePorts(nodeCount * perNode);
  const nodes: NodeState[] = Array.from({ length: nodeCount }, (_, i) => {
    const dir = join(dataDir, `node-${i + 1}`);
    return {
      nodeId: i + 1,
      port: ports[perNode * i]!,
      controllerPort: ports[perNode * i + 1]!,
      ...(options.secured ? { securedPort: ports[perNode * i + 2]! } : {}),
      logDir: join(dir, 'data'),
      dir,
      propsFile: join(dir, 'server.properties'),
      logFile: join(dir, 'kafka.log'),
    };
  });
  const brokers = nodes.map((n) => `127.0.0.1:${n.port}`);
  const classpath = ['-cp', join(libDir, '*')];
  options.onProgress?.(`starting Apache Kafka ${version} (${nodeCount} node${nodeCount > 1 ? 's' : ''})…`);

  const launch = (node: NodeState) => {
    node.process = spawnJava(
      ['-Xms256m', '-Xmx512m', '-XX:+UseG1GC', '-Djava.awt.headless=true', `-Dkafka.logs.dir=${node.dir}`,
        ...logJvmArgs, ...classpath, 'kafka.Kafka', node.propsFile],
      { logFile: node.logFile, detached: options.detached, cleanupDir },
    );
  };

  const stopAll = async () => {
    // Concurrently: brokers shutting down one by one would each wait on a shrinking quorum.
    await Promise.all(nodes.map((n) => (n.process ? terminate(n.process.pid) : undefined)));
    for (const n of nodes) n.process = undefined;
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  let secured: SecuredListener | undefined;
  try {
    let securedProperties: Record<string, string> = {};
    if (options.secured) {
      const config = await securedListenerConfig(join(dataDir, 'secured'));
      securedProperties = config.properties;
      secured = { ...config.listener, brokers: nodes.map((n) => `127.0.0.1:${n.securedPort}`) };
    }
    const clusterId = newClusterId();
    await Promise.all(
      nodes.map(async (node) => {
        await mkdir(node.logDir, { recursive: true });
        await writeFile(node.propsFile, serverProperties(node, nodes, { ...securedProperties, ...options.extraConfig }));
        // Format is a short-lived tool run: a small, fast-starting JVM is enough.
        const code = await runJava(
          ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', ...logJvmArgs, ...classpath,
            'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', node.propsFile, ...(options.secured ? scramFormatArguments() : [])],
          node.logFile,
        );
        if (code !== 0) throw new Error(`kafka-storage format of node ${node.nodeId} failed (${code}):\n${await tail(node.logFile)}`);
      }),
    );
    nodes.forEach(launch);
    await waitReady(brokers, nodes, options.readyTimeoutMs ?? 90_000);
  } catch (e) {
    await stopAll().catch(() => undefined);
    throw e;
  }
  options.onProgress?.(`Kafka ${version} ready on ${brokers.join(',')}${secured ? ` (SASL_SSL on ${secured.brokers.join(',')})` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const nodeAt = (index: number): NodeState => {
    const node = nodes[index];
    if (!node) throw new RangeError(`no Kafka node at index ${index} (cluster has ${nodes.length})`);
    return node;
  };
  const stopNode = async (index: number, opts: { hard?: boolean } = {}) => {
    const node = nodeAt(index);
    if (node.process) await terminate(node.process.pid, opts);
    node.process = undefined;
  };
  return {
    brokers,
    ...(secured ? { secured } : {}),
    version,
    nodes: nodeCount,
    dataDir,
    get pids() {
      return nodes.flatMap((n) => (n.process ? [n.process.pid] : []));
    },
    stop: stopAll,
    stopNode,
    killNode: (index) => stopNode(index, { hard: true }),
    async startNode(index) {
      const node = nodeAt(index);
      if (node.process) throw new Error(`Kafka node ${node.nodeId} is already running`);
      if (!existsSync(node.propsFile)) throw new Error(`Kafka node ${node.nodeId} has no data left (cluster stopped?)`);
      launch(node);
      await waitReady(brokers, nodes.filter((n) => n.process), options.readyTimeoutMs ?? 90_000);
    },
  };
}

/**
 * The broker list a test run was given in env `LOGBOOK_KAFKA_BROKERS` (comma-separated).
 * Throws a message saying how to get one, so a test without a broker fails at once
 * instead of timing out.
 */
export function brokersFromEnv(): string[] {
  const brokers = (process.env.LOGBOOK_KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  if (brokers.length === 0) {
    throw new Error(
      'LOGBOOK_KAFKA_BROKERS is not set. Run Kafka tests through `npm test` (which starts a broker), ' +
        'or start one with `npm run kafka:start` and export the LOGBOOK_KAFKA_BROKERS it prints.',
    );
  }
  return brokers;
}
