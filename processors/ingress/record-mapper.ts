import { createHash } from 'node:crypto';
import { workflowKey } from '../../topics/catalog.js';
import { deadLetterRecord } from '../../topics/dead-letter.js';
import type { LogRecord, OutgoingRecord } from '../../topics/log/log.js';
import { recordSize } from '../../topics/log/record-size.js';
import type { DataConverter } from '../../topics/payload/index.js';
import type { Command, CommandBody, StartWorkflowExecutionRequest } from '../../topics/schemas/command/index.js';
import { commandCodec, SchemaRegistryError, type SchemaRegistryClient, type Serde } from '../../topics/serde/index.js';
import { commandProblem } from '../../topics/validation/index.js';
import type { IngressMapping } from './ingress-mapping.js';
import { sourceDecoder, SourceDecodeError, type SourceDecoder } from './source-decoder.js';
import { asText, MissingValueError, valueAt, type SourceParts, type ValueSource } from './value-source.js';

/** What one source record became: a command for the command topic, or a dead letter with its reason. */
export type MappedRecord =
  | { readonly kind: 'command'; readonly record: OutgoingRecord }
  | { readonly kind: 'deadLetter'; readonly record: OutgoingRecord; readonly code: IngressDeadLetterCode };

/** Stable codes of the dead letters an ingress writes (header `logbook.dlq.code`). */
export type IngressDeadLetterCode = 'INGRESS_DECODE' | 'INGRESS_MAPPING' | 'INGRESS_INVALID_COMMAND' | 'INGRESS_TOO_LARGE';

/** Where the mapper writes: the command topic, the dead-letter topic and the largest record allowed. */
export interface MapperTarget {
  readonly commandTopic: string;
  readonly deadLetterTopic: string;
  readonly maxRecordBytes: number;
  readonly serde: Serde;
  readonly dataConverter: DataConverter;
  /** Where an `avro-registry` source's writer schemas come from. */
  readonly sourceRegistry?: SchemaRegistryClient;
}

/**
 * Maps the records of one ingress source. A record's request id is `topic/partition/offset`, and
 * its run id is derived from that, so a record mapped again after a crash makes the same command
 * and the shard deduplicates it.
 */
export class RecordMapper {
  private readonly decode: SourceDecoder;
  private readonly identity: string;

  constructor(
    private readonly mapping: IngressMapping,
    private readonly target: MapperTarget,
  ) {
    this.decode = sourceDecoder(mapping, target.sourceRegistry);
    this.identity = `ingress:${mapping.name}`;
  }

  /**
   * The command for `record`, or its dead letter; never throws for anything a record holds.
   * @throws SchemaRegistryError when a registry cannot answer (the batch is tried again)
   */
  async map(record: LogRecord): Promise<MappedRecord> {
    const deadLetter = (code: IngressDeadLetterCode, reason: string): MappedRecord => ({
      kind: 'deadLetter',
      code,
      record: deadLetterRecord(this.target.deadLetterTopic, record, code, `ingress mapping '${this.mapping.name}': ${reason}`, 'ingress'),
    });
    if (record.value === null) return deadLetter('INGRESS_DECODE', 'the record has no value (a tombstone)');
    let decoded: unknown;
    try {
      decoded = await this.decode(record.value);
    } catch (error) {
      if (error instanceof SourceDecodeError) return deadLetter('INGRESS_DECODE', error.message);
      // Not the record's fault (a registry that cannot answer): the batch is tried again.
      throw error;
    }
    let command: Command;
    try {
      const parts: SourceParts = { key: record.key?.toString('utf8') ?? null, value: decoded, headers: record.headers };
      command = this.command(record, parts);
    } catch (error) {
      if (error instanceof MissingValueError) return deadLetter('INGRESS_MAPPING', error.message);
      // The data converter refuses values it cannot encode (a bigint, a function): the record is at fault.
      return deadLetter('INGRESS_MAPPING', `an argument cannot be encoded: ${error instanceof Error ? error.message : String(error)}`);
    }
    const problem = commandProblem(command);
    if (problem) return deadLetter('INGRESS_INVALID_COMMAND', problem);
    let value: Buffer;
    try {
      value = await this.target.serde.encode(commandCodec, command, this.target.commandTopic);
    } catch (error) {
      // The node's own registry failing is not the record's fault: the batch is tried again.
      if (error instanceof SchemaRegistryError) throw error;
      // A value the rules let through but the schema cannot carry must not stall the partition.
      return deadLetter('INGRESS_INVALID_COMMAND', `the command cannot be encoded: ${error instanceof Error ? error.message : String(error)}`);
    }
    const out: OutgoingRecord = { topic: this.target.commandTopic, key: workflowKey(command.namespace, command.workflowId), value };
    const size = recordSize(out);
    if (size > this.target.maxRecordBytes) return deadLetter('INGRESS_TOO_LARGE', `the command would be ${size} bytes, over the limit of ${this.target.maxRecordBytes}`);
    return { kind: 'command', record: out };
  }

  private command(record: LogRecord, parts: SourceParts): Command {
    const m = this.mapping;
    const requestId = `${record.topic}/${record.partition}/${record.offset}`;
    const workflowId = m.workflowIdPrefix + asText(valueAt(m.workflowId, parts), 'the workflow id');
    const text = (source: ValueSource | null, what: string) => asText(valueAt(source!, parts), what);
    const payloads = (sources: readonly ValueSource[]) => sources.map((s) => this.target.dataConverter.toPayload(valueAt(s, parts)));
    const start = (): StartWorkflowExecutionRequest => ({
      runId: runIdFor(requestId),
      workflowType: text(m.workflowType, 'the workflow type'),
      taskQueue: text(m.taskQueue, 'the task queue'),
      input: payloads(m.args),
      identity: this.identity,
      workflowIdConflictPolicy: m.workflowIdConflictPolicy,
      workflowIdReusePolicy: m.workflowIdReusePolicy,
      workflowExecutionTimeoutMs: null,
      workflowRunTimeoutMs: null,
      workflowTaskTimeoutMs: null,
      retryPolicy: null,
      cronSchedule: null,
      workflowStartDelayMs: null,
      memo: {},
      searchAttributes: {},
      header: {},
      parent: null,
    });
    let body: CommandBody;
    if (m.action === 'start') body = { type: 'StartWorkflowExecution', ...start() };
    else if (m.action === 'signal') {
      body = { type: 'SignalWorkflowExecution', signalName: text(m.signalName, 'the signal name'), input: payloads(m.signalArgs), identity: this.identity, header: {}, externalInitiator: null, childWorkflowOnly: false };
    } else {
      body = { type: 'SignalWithStartWorkflowExecution', start: start(), signalName: text(m.signalName, 'the signal name'), signalInput: payloads(m.signalArgs), signalHeader: {} };
    }
    return { requestId, namespace: m.namespace, workflowId, runId: null, replyTo: null, body };
  }
}

/** A UUID-shaped run id derived from the request id, so mapping a record again gives the same run id. */
export function runIdFor(requestId: string): string {
  const hex = createHash('sha256').update(`logbook-ingress/${requestId}`).digest('hex');
  // Version 8 (custom) and the RFC 4122 variant: a well-formed UUID that says it was not random.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
