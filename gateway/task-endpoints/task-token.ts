import { HttpError } from '../http-errors.js';
import type { TokenSigner } from './token-signer.js';

/** Which kind of task a token names; a workflow token is refused by the activity endpoints and vice versa. */
export type TaskKind = 'workflow' | 'activity';

/** What a task token identifies: one attempt of one task, and the record it was read from. */
export interface TaskTokenData {
  readonly kind: TaskKind;
  readonly namespace: string;
  readonly taskQueue: string;
  readonly workflowId: string;
  readonly runId: string;
  readonly scheduledEventId: number;
  readonly attempt: number;
  /** The poller's identity, reported with the result. */
  readonly identity: string;
  /** Task-topic partition and offset of the record, so the bridge can release it. */
  readonly partition: number;
  readonly offset: number;
}

/** The version every token of this gateway carries. */
export const TOKEN_VERSION = 1;
const STRING_FIELDS = ['namespace', 'taskQueue', 'workflowId', 'runId', 'identity'] as const;
const INTEGER_FIELDS = ['scheduledEventId', 'attempt', 'partition', 'offset'] as const;

/**
 * Encodes a token: base64url JSON, opaque to workers. It carries everything a result needs, so a
 * completion is accepted by any gateway node (the engine drops stale or duplicate results).
 */
export function encodeTaskToken(data: TaskTokenData, signer: TokenSigner): string {
  return signer.sign(Buffer.from(JSON.stringify({ v: TOKEN_VERSION, ...data })).toString('base64url'));
}

/**
 * Decodes and checks a token from a request body: it must be a token of `kind` issued for this
 * namespace and task queue. Anything else is a 400 that says what is wrong.
 */
export function decodeTaskToken(value: unknown, kind: TaskKind, namespace: string, taskQueue: string, signer: TokenSigner): TaskTokenData {
  const parsed = parseToken(signer.verify(value), 'task');
  if (parsed.kind !== 'workflow' && parsed.kind !== 'activity') throw invalid(`'taskToken' names no task kind`);
  for (const name of STRING_FIELDS) if (typeof parsed[name] !== 'string' || parsed[name] === '') throw invalid(`'taskToken' lacks '${name}'`);
  for (const name of INTEGER_FIELDS) if (!Number.isSafeInteger(parsed[name]) || (parsed[name] as number) < 0) throw invalid(`'taskToken' lacks '${name}'`);
  const token = parsed as unknown as TaskTokenData & { v: number };
  if (token.kind !== kind) throw invalid(`'taskToken' is a ${token.kind} task token; this endpoint takes ${kind} task tokens`);
  checkQueue(token, namespace, taskQueue);
  const { v: _version, ...data } = token;
  return data;
}

/** A token's JSON: base64url of a JSON object of this version; anything else is a 400 naming `what` tokens. */
export function parseToken(value: string, what: 'task' | 'query'): Record<string, unknown> {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw invalid(`'taskToken' is not a ${what} token issued by this gateway (not base64url JSON)`);
  }
  if (parsed === null || typeof parsed !== 'object' || parsed.v !== TOKEN_VERSION) throw invalid(`'taskToken' is not a ${what} token issued by this gateway (unknown version)`);
  return parsed;
}

/** A 403 unless the token was issued for this namespace and task queue: a queue's token answers no other queue's task. */
export function checkQueue(token: { readonly namespace: string; readonly taskQueue: string }, namespace: string, taskQueue: string): void {
  if (token.namespace !== namespace || token.taskQueue !== taskQueue) {
    throw new HttpError(403, 'INVALID_TASK_TOKEN', `'taskToken' belongs to task queue '${token.taskQueue}' of namespace '${token.namespace}', not '${taskQueue}' of '${namespace}'`);
  }
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_TASK_TOKEN', message);
}
