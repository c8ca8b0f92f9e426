import avro from 'avsc';
import type { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '../../topics/schemas/common/v1-enums.js';
import { InvalidArgumentError, namespaceProblem, oneOfProblem, topicNamePartProblem, topicNameProblem } from '../../topics/validation/index.js';
import { normalisedSource, valueSourceProblem, type ValueSource } from './value-source.js';

/**
 * An ingress mapping: how records of a business topic become workflow starts, signal-with-starts
 * or signals. Declared in a JSON file (`--ingress FILE`, `{ "mappings": [ … ] }`); README
 * "Ingress from business topics" lists every option.
 */
export interface IngressMapping {
  /** Names the mapping's consumer group, transactional ids, dead-letter topic and metrics. */
  readonly name: string;
  readonly sourceTopic: string;
  /**
   * `json`: UTF-8 JSON values; `avro`: Avro single-object encoding of `avroSchema`; `avro-registry`:
   * the Confluent wire format (magic byte, schema id, body), writer schemas read from a registry.
   */
  readonly format: IngressFormat;
  /**
   * `avro`: the writer schema (from `avroSchemaFile` or inline); records must carry its fingerprint.
   * `avro-registry`: an optional reader schema each writer schema is resolved to; null reads values as written.
   */
  readonly avroSchema: unknown;
  /** `avro-registry`: the registry's URL, when it is not the node's own (`--schema-registry`). */
  readonly schemaRegistry: string | null;
  readonly action: IngressAction;
  readonly namespace: string;
  readonly workflowId: ValueSource;
  /** Put before the id taken from the record (`order-` + key). */
  readonly workflowIdPrefix: string;
  /** Required for `start` and `signalWithStart`. */
  readonly workflowType: ValueSource | null;
  readonly taskQueue: ValueSource | null;
  /** The workflow's arguments, one source each; default one argument, the whole value. */
  readonly args: readonly ValueSource[];
  /** Required for `signal` and `signalWithStart`. */
  readonly signalName: ValueSource | null;
  readonly signalArgs: readonly ValueSource[];
  readonly workflowIdConflictPolicy: WorkflowIdConflictPolicy;
  readonly workflowIdReusePolicy: WorkflowIdReusePolicy;
  /** Where records that cannot be mapped go, with the reason; default `<prefix>.ingress.<name>.dlq`. */
  readonly deadLetterTopic: string | null;
}

/** The value formats an ingress source may have. */
export const INGRESS_FORMATS = ['json', 'avro', 'avro-registry'] as const;
export type IngressFormat = (typeof INGRESS_FORMATS)[number];
/** What a record becomes. */
export const INGRESS_ACTIONS = ['start', 'signalWithStart', 'signal'] as const;
export type IngressAction = (typeof INGRESS_ACTIONS)[number];

const CONFLICT_POLICIES: readonly WorkflowIdConflictPolicy[] = ['Fail', 'UseExisting', 'TerminateExisting'];
const REUSE_POLICIES: readonly WorkflowIdReusePolicy[] = ['AllowDuplicate', 'AllowDuplicateFailedOnly', 'RejectDuplicate'];
const KNOWN_KEYS = new Set([
  'name', 'sourceTopic', 'format', 'avroSchemaFile', 'avroSchema', 'schemaRegistry', 'action', 'namespace', 'workflowId', 'workflowIdPrefix', 'workflowType',
  'taskQueue', 'args', 'signalName', 'signalArgs', 'workflowIdConflictPolicy', 'workflowIdReusePolicy', 'deadLetterTopic',
]);
/** Kafka's longest topic name, less room for the engine's dead-letter suffix. */
const MAX_NAME_LENGTH = 100;
const WHOLE_VALUE: readonly ValueSource[] = [{ from: 'value' }];

/**
 * Checks and completes the mappings of an ingress file.
 * @param readSchema reads an `avroSchemaFile` (relative to the file) and parses it as JSON
 * @throws InvalidArgumentError naming the mapping and the option that breaks its rule
 */
export function parseIngressMappings(file: unknown, readSchema: (path: string) => unknown): IngressMapping[] {
  if (file === null || typeof file !== 'object' || !Array.isArray((file as { mappings?: unknown }).mappings)) {
    throw new InvalidArgumentError('an ingress file must be a JSON object with a "mappings" array');
  }
  const mappings = (file as { mappings: unknown[] }).mappings.map((entry, i) => parseMapping(entry, i, readSchema));
  const names = new Set<string>();
  for (const mapping of mappings) {
    if (names.has(mapping.name)) throw new InvalidArgumentError(`ingress mapping names must be unique: '${mapping.name}' appears twice`);
    names.add(mapping.name);
  }
  return mappings;
}

function parseMapping(entry: unknown, index: number, readSchema: (path: string) => unknown): IngressMapping {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new InvalidArgumentError(`mappings[${index}] must be an object`);
  const raw = entry as Record<string, unknown>;
  const where = typeof raw.name === 'string' ? `ingress mapping '${raw.name}'` : `mappings[${index}]`;
  const fail = (problem: string | null): void => {
    if (problem) throw new InvalidArgumentError(`${where}: ${problem}`);
  };
  const unknown = Object.keys(raw).find((k) => !KNOWN_KEYS.has(k));
  fail(unknown ? `unknown option '${unknown}' (options: ${[...KNOWN_KEYS].join(', ')})` : null);
  fail(topicNamePartProblem('name', raw.name, MAX_NAME_LENGTH));
  fail(topicNameProblem(raw.sourceTopic, 'sourceTopic'));
  const format = raw.format ?? 'json';
  fail(oneOfProblem(format, 'format', INGRESS_FORMATS));
  fail(oneOfProblem(raw.action, 'action', INGRESS_ACTIONS));
  const action = raw.action as IngressAction;
  const namespace = raw.namespace ?? 'default';
  fail(namespaceProblem(namespace));
  fail(raw.workflowId === undefined ? "'workflowId' is required: {\"from\":\"key\"} or {\"field\":\"path\"}" : valueSourceProblem(raw.workflowId, 'workflowId'));
  fail(raw.workflowIdPrefix === undefined || typeof raw.workflowIdPrefix === 'string' ? null : 'workflowIdPrefix must be a string');
  const starts = action !== 'signal';
  const signals = action !== 'start';
  for (const field of ['workflowType', 'taskQueue'] as const) {
    if (starts) fail(raw[field] === undefined ? `'${field}' is required for action '${action}'` : valueSourceProblem(raw[field], field));
    else fail(raw[field] === undefined ? null : `'${field}' has no use for action 'signal'`);
  }
  if (signals) fail(raw.signalName === undefined ? `'signalName' is required for action '${action}'` : valueSourceProblem(raw.signalName, 'signalName'));
  else fail(raw.signalName === undefined && raw.signalArgs === undefined ? null : "'signalName' and 'signalArgs' have no use for action 'start'");
  fail(sourcesProblem(raw.args, 'args'));
  fail(sourcesProblem(raw.signalArgs, 'signalArgs'));
  if (action === 'signal') fail(raw.args === undefined ? null : "'args' has no use for action 'signal' (use 'signalArgs')");
  const conflict = raw.workflowIdConflictPolicy ?? 'Fail';
  fail(oneOfProblem(conflict, 'workflowIdConflictPolicy', CONFLICT_POLICIES));
  const reuse = raw.workflowIdReusePolicy ?? 'AllowDuplicate';
  fail(oneOfProblem(reuse, 'workflowIdReusePolicy', REUSE_POLICIES));
  fail(raw.deadLetterTopic === undefined ? null : topicNameProblem(raw.deadLetterTopic, 'deadLetterTopic'));
  fail(raw.deadLetterTopic !== undefined && raw.deadLetterTopic === raw.sourceTopic ? 'deadLetterTopic must differ from sourceTopic' : null);
  let avroSchema: unknown = null;
  const inline = raw.avroSchema !== undefined;
  const named = inline || raw.avroSchemaFile !== undefined;
  if (format === 'avro' || (format === 'avro-registry' && named)) {
    fail(inline && raw.avroSchemaFile !== undefined ? "give the writer schema once: 'avroSchemaFile' or 'avroSchema', not both" : null);
    fail(inline || (typeof raw.avroSchemaFile === 'string' && raw.avroSchemaFile !== '') ? null : "'avroSchemaFile' is required for format 'avro' (the writer schema, .avsc; or give it inline as 'avroSchema')");
    const what = inline ? 'avroSchema' : `avroSchemaFile '${String(raw.avroSchemaFile)}'`;
    try {
      avroSchema = inline ? raw.avroSchema : readSchema(raw.avroSchemaFile as string);
    } catch (error) {
      fail(`${what} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      avro.Type.forSchema(avroSchema as avro.Schema);
    } catch (error) {
      fail(`${what} is not an Avro schema: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (format === 'json') {
    fail(named ? "'avroSchemaFile' and 'avroSchema' are only for formats 'avro' and 'avro-registry'" : null);
  }
  fail(raw.schemaRegistry === undefined || format === 'avro-registry' ? null : "'schemaRegistry' is only for format 'avro-registry'");
  fail(raw.schemaRegistry === undefined || (typeof raw.schemaRegistry === 'string' && /^https?:\/\/[^/\s]+/.test(raw.schemaRegistry)) ? null : "schemaRegistry must be an http(s) URL");
  const optionalSource = (value: unknown) => (value === undefined ? null : normalisedSource(value as string | ValueSource));
  return {
    name: raw.name as string,
    sourceTopic: raw.sourceTopic as string,
    format: format as IngressFormat,
    avroSchema,
    schemaRegistry: (raw.schemaRegistry as string | undefined) ?? null,
    action,
    namespace: namespace as string,
    workflowId: normalisedSource(raw.workflowId as ValueSource),
    workflowIdPrefix: (raw.workflowIdPrefix as string | undefined) ?? '',
    workflowType: optionalSource(raw.workflowType),
    taskQueue: optionalSource(raw.taskQueue),
    args: action === 'signal' ? [] : sources(raw.args),
    signalName: optionalSource(raw.signalName),
    signalArgs: action === 'start' ? [] : sources(raw.signalArgs),
    workflowIdConflictPolicy: conflict as WorkflowIdConflictPolicy,
    workflowIdReusePolicy: reuse as WorkflowIdReusePolicy,
    deadLetterTopic: (raw.deadLetterTopic as string | undefined) ?? null,
  };
}

function sourcesProblem(value: unknown, field: string): string | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) return `${field} must be an array of value sources, for example [{"from":"value"}]`;
  for (const [i, source] of value.entries()) {
    const problem = valueSourceProblem(source, `${field}[${i}]`);
    if (problem) return problem;
  }
  return null;
}

function sources(value: unknown): ValueSource[] {
  return value === undefined ? [...WHOLE_VALUE] : (value as Array<string | ValueSource>).map(normalisedSource);
}
