import { connect, type Socket } from 'node:net';
import type { KafkaSocketFactory } from '../../topics/log/kafka/kafka-log.js';

/** Kafka protocol API key of Produce requests. */
const PRODUCE_API_KEY = 0;

/** One fault: what happens to the broker's answers to chosen Produce requests. */
export interface ProduceFault {
  /** Only Produce requests of this transactional id. */
  readonly transactionalId: string;
  /** Only connections to the broker on this port (every broker when absent). */
  readonly port?: number;
  /** How many Produce responses this fault affects before it is spent. */
  readonly times: number;
  /**
   * `delay`: the response reaches the client `delayMs` late (the broker has appended long before);
   * `drop`: the connection fails when the response arrives, as when a broker dies right after appending;
   * `error`: every partition of the response carries `code`, as NOT_ENOUGH_REPLICAS_AFTER_APPEND (20)
   * does when the records were written but the in-sync replicas shrank meanwhile.
   */
  readonly action: { readonly kind: 'delay'; readonly delayMs: number } | { readonly kind: 'drop' } | { readonly kind: 'error'; readonly code: number };
}

/** What was injected, for a test to check its faults actually happened. */
export interface InjectedFault {
  readonly port: number;
  readonly correlationId: number;
  readonly action: ProduceFault['action']['kind'];
}

/** One record batch of a Produce request: where it goes and the idempotence sequence it carries. */
export interface ProducedBatch {
  readonly topic: string;
  readonly partition: number;
  readonly baseSequence: number;
  readonly records: number;
}

/** A Produce request of a watched transactional id, as written to the broker. */
export interface ProduceRequestSeen {
  readonly transactionalId: string;
  readonly port: number;
  /** Milliseconds since the faults were created. */
  readonly at: number;
  readonly correlationId: number;
  readonly batches: readonly ProducedBatch[];
}

/** A socket factory for `KafkaLog`'s fault-injection option, and what it saw and did so far. */
export interface ProduceFaults {
  readonly socketFactory: KafkaSocketFactory;
  readonly injected: readonly InjectedFault[];
  /** Every Produce request of the faults' transactional ids, in the order they were written. */
  readonly requests: readonly ProduceRequestSeen[];
}

/**
 * Builds a KafkaJS socket factory that tampers with the broker's answers to Produce requests of
 * chosen transactional ids: it reads each request the client writes (a whole frame per write: size,
 * API key, version, correlation id, client id, then Produce's transactional id and record batches)
 * and, when the response with a chosen correlation id comes back, delays it, fails the connection
 * or rewrites its error codes. The broker
 * itself is untouched, so what it appended stays appended: exactly the situation in which a client
 * cannot know whether its records were written.
 */
export function produceFaults(faults: readonly ProduceFault[]): ProduceFaults {
  const remaining = faults.map((f) => ({ fault: f, left: f.times }));
  const injected: InjectedFault[] = [];
  const requests: ProduceRequestSeen[] = [];
  const watched = new Set(faults.map((f) => f.transactionalId));
  const start = Date.now();
  const socketFactory: KafkaSocketFactory = ({ host, port, onConnect }) => {
    const socket = connect({ host, port }, onConnect);
    socket.setKeepAlive(true, 60_000);
    const chosen = new Map<number, ProduceFault['action']>();
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (Buffer.isBuffer(chunk)) {
        const request = produceRequestOf(chunk);
        const slot = request && remaining.find((r) => r.left > 0 && r.fault.transactionalId === request.transactionalId && (r.fault.port ?? port) === port);
        if (request?.transactionalId && watched.has(request.transactionalId)) {
          requests.push({ transactionalId: request.transactionalId, port, at: Date.now() - start, correlationId: request.correlationId, batches: request.batches });
        }
        if (request && slot) {
          slot.left--;
          chosen.set(request.correlationId, slot.fault.action);
        }
      }
      return write(chunk, ...rest);
    }) as Socket['write'];
    interceptResponses(socket, (correlationId) => {
      const action = chosen.get(correlationId);
      if (action) {
        chosen.delete(correlationId);
        injected.push({ port, correlationId, action: action.kind });
      }
      return action;
    });
    return socket;
  };
  return { socketFactory, injected, requests };
}

/** A Produce request frame (v5 to v7, what KafkaJS 2.2.4 sends) decoded as far as the tests need, or undefined for other requests. */
function produceRequestOf(frame: Buffer): { correlationId: number; transactionalId: string | null; batches: ProducedBatch[] } | undefined {
  if (frame.length < 14 || frame.readInt16BE(4) !== PRODUCE_API_KEY || frame.readInt16BE(6) < 5 || frame.readInt16BE(6) > 7) return undefined;
  const correlationId = frame.readInt32BE(8);
  let at = 14 + Math.max(frame.readInt16BE(12), 0);
  const string = (): string | null => {
    const length = frame.readInt16BE(at);
    at += 2;
    if (length < 0) return null;
    at += length;
    return frame.toString('utf8', at - length, at);
  };
  const transactionalId = string();
  at += 2 + 4; // acks, timeout
  const batches: ProducedBatch[] = [];
  const topics = frame.readInt32BE(at);
  at += 4;
  for (let i = 0; i < topics; i++) {
    const topic = string() ?? '';
    const partitions = frame.readInt32BE(at);
    at += 4;
    for (let j = 0; j < partitions; j++) {
      const partition = frame.readInt32BE(at);
      const size = frame.readInt32BE(at + 4);
      const batch = at + 8;
      // RecordBatch v2: baseSequence at byte 53, record count at 57.
      batches.push({ topic, partition, baseSequence: frame.readInt32BE(batch + 53), records: frame.readInt32BE(batch + 57) });
      at = batch + size;
    }
  }
  return { correlationId, transactionalId, batches };
}

/**
 * Re-frames the response stream and hands each frame to KafkaJS's `data` listener. A delayed
 * frame does not hold back the frames behind it (KafkaJS matches answers by correlation id): the
 * client's next requests — a metadata refresh, a retry — go ahead as they would on another broker.
 */
function interceptResponses(socket: Socket, actionFor: (correlationId: number) => ProduceFault['action'] | undefined): void {
  const on = socket.on.bind(socket);
  socket.on = ((event: string, listener: (...args: unknown[]) => void) => {
    if (event !== 'data') return on(event, listener);
    let pending = Buffer.alloc(0);
    return on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const frame = pending.subarray(0, 4 + pending.readInt32BE(0));
        pending = pending.subarray(frame.length);
        const action = actionFor(frame.readInt32BE(4));
        if (action?.kind === 'drop') {
          socket.destroy(Object.assign(new Error('injected fault: connection reset after the broker answered a produce request'), { code: 'ECONNRESET' }));
          return;
        }
        if (action?.kind === 'delay') setTimeout(() => !socket.destroyed && listener(frame), action.delayMs);
        else listener(action?.kind === 'error' ? withPartitionErrors(frame, action.code) : frame);
      }
    });
  }) as Socket['on'];
}

/** A copy of a Produce response frame (v5 to v7, what KafkaJS 2.2.4 sends) with every partition's error code set. */
function withPartitionErrors(frame: Buffer, code: number): Buffer {
  const copy = Buffer.from(frame);
  let at = 8;
  const topics = copy.readInt32BE(at);
  at += 4;
  for (let i = 0; i < topics; i++) {
    at += 2 + copy.readInt16BE(at);
    const partitions = copy.readInt32BE(at);
    at += 4;
    for (let j = 0; j < partitions; j++) {
      copy.writeInt16BE(code, at + 4);
      // partition, error_code, base_offset, log_append_time, log_start_offset
      at += 4 + 2 + 8 + 8 + 8;
    }
  }
  return copy;
}
