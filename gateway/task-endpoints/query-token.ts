import { HttpError } from '../http-errors.js';
import { checkQueue, parseToken, TOKEN_VERSION } from './task-token.js';
import type { TokenSigner } from './token-signer.js';

/** What a query token identifies: the query's asker (its reply request id) and the run asked. */
export interface QueryTokenData {
  readonly namespace: string;
  readonly taskQueue: string;
  readonly workflowId: string;
  readonly runId: string;
  /** The asker's reply request id: the answer is the reply with this id. */
  readonly requestId: string;
}

const FIELDS = ['namespace', 'taskQueue', 'workflowId', 'runId', 'requestId'] as const;

/** Encodes a query token: base64url JSON signed by the gateways' key, opaque to workers. */
export function encodeQueryToken(data: QueryTokenData, signer: TokenSigner): string {
  const { namespace, taskQueue, workflowId, runId, requestId } = data;
  return signer.sign(Buffer.from(JSON.stringify({ v: TOKEN_VERSION, kind: 'query', namespace, taskQueue, workflowId, runId, requestId })).toString('base64url'));
}

/**
 * Decodes and checks a query token from a request body: it must be a query token issued for this
 * namespace and task queue; anything else is a 400 that says what is wrong.
 */
export function decodeQueryToken(value: unknown, namespace: string, taskQueue: string, signer: TokenSigner): QueryTokenData {
  const parsed = parseToken(signer.verify(value), 'query');
  if (parsed.kind !== 'query') throw invalid(`'taskToken' is not a query token (a query-tasks/poll answer gives one)`);
  for (const name of FIELDS) if (typeof parsed[name] !== 'string' || parsed[name] === '') throw invalid(`'taskToken' lacks '${name}'`);
  const token = parsed as unknown as QueryTokenData;
  checkQueue(token, namespace, taskQueue);
  return { namespace: token.namespace, taskQueue: token.taskQueue, workflowId: token.workflowId, runId: token.runId, requestId: token.requestId };
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_TASK_TOKEN', message);
}
