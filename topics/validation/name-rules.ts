/**
 * Rules for names and identifiers, shared by the clients, the gateway, the topic catalog and the
 * history state machine, so that what one refuses the others refuse too. Pure: no I/O.
 *
 * Namespaces and task queues become parts of Kafka topic names
 * (`<prefix>.tasks.activity.<namespace>.<taskQueue>`), which Kafka limits to 249 characters of
 * letters, digits, `.`, `_` and `-`. The parts are separated by `.`, so a part may not contain
 * one. The longest task topic kinds are `activity` and `workflow` (8 characters), so the fixed
 * characters of the longest name are `.tasks.activity.` and the `.` between namespace and queue:
 * 17. With a prefix of at most 40 characters, a namespace of at most 64 and a task queue of at
 * most 128, the longest task topic name is 40 + 17 + 64 + 128 = 249 characters: never too long.
 *
 * Identifiers and names (workflow id, run id, request id, update id, workflow type, signal,
 * query and update names, activity ids and types, timer ids) follow Temporal's rule: non-empty,
 * at most 1,000 bytes as UTF-8. They may not contain control characters (they end up in log
 * lines, headers and keys) nor unpaired surrogates (not valid Unicode: UTF-8 encoding would
 * silently replace them, so the id written would not be the id sent).
 * @module
 */

/** Kafka's limit on the length of a topic name. */
export const MAX_TOPIC_NAME_LENGTH = 249;
/** Longest topic name prefix (`logbook` by default). */
export const MAX_TOPIC_PREFIX_LENGTH = 40;
/** Longest namespace name. */
export const MAX_NAMESPACE_LENGTH = 64;
/** Longest task queue name. */
export const MAX_TASK_QUEUE_LENGTH = 128;
/** The characters of the longest task topic name that are neither prefix, namespace nor queue. */
export const TASK_TOPIC_FIXED_LENGTH = '.tasks.activity.'.length + '.'.length;
/** Longest identifier or name, in UTF-8 bytes (Temporal's `limit.maxIDLength`). */
export const MAX_IDENTIFIER_BYTES = 1000;

const NAME_PART = /^[A-Za-z0-9_-]+$/;
const QUEUE_PATH = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
const PREFIX = /^[A-Za-z0-9._-]+$/;
// Unicode Cc (C0, DEL, C1) and lone surrogates (Cs matches only unpaired ones in a /u pattern).
const CONTROL = /\p{Cc}/u;
const LONE_SURROGATE = /\p{Cs}/u;

/** A value as a message shows it: control characters escaped, long values cut. */
export function shown(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped.length > 80 ? `${escaped.slice(0, 80)}…` : escaped;
}

/** Why `value` cannot be the part `field` of a topic name (a namespace or a task queue), or null. */
export function topicNamePartProblem(field: string, value: unknown, maxLength: number): string | null {
  if (typeof value !== 'string' || value.length === 0) return `${field} must be a non-empty string`;
  if (!NAME_PART.test(value)) return `${field} '${shown(value)}' may contain only letters, digits, '_' and '-' (it is part of a topic name)`;
  if (value.length > maxLength) return `${field} '${shown(value)}' is ${value.length} characters long; at most ${maxLength} are allowed (it is part of a topic name)`;
  return null;
}

/** Why `value` cannot be a namespace name, or null. */
export function namespaceProblem(value: unknown, field = 'namespace'): string | null {
  return topicNamePartProblem(field, value, MAX_NAMESPACE_LENGTH);
}

/**
 * Why `value` cannot be a task queue name, or null. Besides a topic name part's characters a queue
 * name may have `/` between them (`team/orders`, as Temporal users name queues): in topic names it
 * becomes `.`, which no namespace or queue name contains, so two queues never share a topic.
 */
export function taskQueueProblem(value: unknown, field = 'taskQueue'): string | null {
  if (typeof value === 'string' && value.includes('/')) {
    if (!QUEUE_PATH.test(value)) return `${field} '${shown(value)}' may contain only letters, digits, '_' and '-', and '/' between them (it is part of a topic name)`;
    return value.length > MAX_TASK_QUEUE_LENGTH ? `${field} '${shown(value)}' is ${value.length} characters long; at most ${MAX_TASK_QUEUE_LENGTH} are allowed (it is part of a topic name)` : null;
  }
  return topicNamePartProblem(field, value, MAX_TASK_QUEUE_LENGTH);
}

/** The part of topic names that stands for a task queue: its `/` as `.` (see {@link taskQueueProblem}). */
export function taskQueueTopicPart(taskQueue: string): string {
  return taskQueue.replaceAll('/', '.');
}

/** Why `value` cannot name a whole Kafka topic (a business topic the engine reads, a dead-letter topic), or null. */
export function topicNameProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'string' || value === '') return `${field} must be a non-empty topic name`;
  if (!PREFIX.test(value) || value === '.' || value === '..' || value.length > MAX_TOPIC_NAME_LENGTH) {
    return `${field} '${shown(value)}' is not a Kafka topic name (1–${MAX_TOPIC_NAME_LENGTH} letters, digits, '.', '_' or '-', not '.' or '..')`;
  }
  return null;
}

/** Why `value` cannot prefix the topic names, or null (dots are allowed: `acme.logbook`). */
export function topicPrefixProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'topic prefix must be a non-empty string';
  if (!PREFIX.test(value)) return `topic prefix '${shown(value)}' may contain only letters, digits, '.', '_' and '-' (it starts every topic name)`;
  if (value.length > MAX_TOPIC_PREFIX_LENGTH) return `topic prefix '${shown(value)}' is ${value.length} characters long; at most ${MAX_TOPIC_PREFIX_LENGTH} are allowed`;
  return null;
}

/** Identifiers that name a resource in an HTTP API path (`…/workflows/{workflowId}/updates/{updateId}`). */
const PATH_IDENTIFIERS: ReadonlySet<string> = new Set(['workflowId', 'updateId']);

/**
 * Why `value` cannot be one segment of a URL path, or null: every URL parser (WHATWG, and so
 * `fetch` and browsers) removes the dot segments `.` and `..`, also when written `%2E`, so a
 * workflow with such an id could be started but never addressed.
 */
export function pathSegmentProblem(value: string, field: string): string | null {
  return value === '.' || value === '..' ? `${field} may not be '.' or '..': URL paths cannot carry them` : null;
}

/** Why `value` cannot be the identifier or name `field` (workflowId, signalName, …), or null. */
export function identifierProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'string' || value.length === 0) return `${field} must be a non-empty string`;
  if (PATH_IDENTIFIERS.has(field)) {
    const problem = pathSegmentProblem(value, field);
    if (problem) return problem;
  }
  const bytes = utf8Length(value);
  if (bytes > MAX_IDENTIFIER_BYTES) return `${field} '${shown(value)}' is ${bytes} bytes long (UTF-8); at most ${MAX_IDENTIFIER_BYTES} are allowed`;
  const control = CONTROL.exec(value);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `${field} '${shown(value)}' contains the control character U+${code} at index ${control.index}; control characters are not allowed`;
  }
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) return `${field} '${shown(value)}' contains an unpaired surrogate at index ${surrogate.index}; it must be valid Unicode`;
  return null;
}

/** Like {@link identifierProblem}, but null (absent) is allowed too. */
export function optionalIdentifierProblem(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : identifierProblem(value, field);
}

/** The UTF-8 length of a string, counted without encoding it (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
