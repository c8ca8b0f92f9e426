/**
 * The task token of an activity attempt: what a worker hands to the code that completes the
 * activity later (async completion), and what the gateway takes back to write the attempt's
 * result. Versioned JSON, opaque to its holders; unsigned (the gateway's task tokens are too —
 * signing them is issue 15's work).
 * @module
 */
import { LogbookError } from './errors.js';

/** The attempt a token names. */
export interface ActivityTaskTokenData {
  readonly namespace: string;
  readonly taskQueue: string;
  readonly workflowId: string;
  readonly runId: string;
  readonly activityId: string;
  readonly scheduledEventId: number;
  readonly attempt: number;
}

const VERSION = 1;
const STRING_FIELDS = ['namespace', 'taskQueue', 'workflowId', 'runId', 'activityId'] as const;
const INTEGER_FIELDS = ['scheduledEventId', 'attempt'] as const;

/** A token that is not one: the message says what is wrong. */
export class InvalidActivityTaskTokenError extends LogbookError {
  constructor(problem: string) {
    super('InvalidArgument', `taskToken: ${problem}`);
  }
}

/** The token's bytes. */
export function encodeActivityTaskToken(data: ActivityTaskTokenData): Uint8Array {
  const { namespace, taskQueue, workflowId, runId, activityId, scheduledEventId, attempt } = data;
  return Buffer.from(JSON.stringify({ v: VERSION, namespace, taskQueue, workflowId, runId, activityId, scheduledEventId, attempt }), 'utf8');
}

/**
 * The attempt a token names, from its bytes or their base64.
 * @throws InvalidActivityTaskTokenError for anything that is not a token of this version
 */
export function decodeActivityTaskToken(token: Uint8Array | string): ActivityTaskTokenData {
  if (typeof token === 'string' && !/^[A-Za-z0-9+/_-]+=*$/.test(token)) throw new InvalidActivityTaskTokenError('not base64');
  const bytes = typeof token === 'string' ? Buffer.from(token, 'base64') : Buffer.from(token);
  if (bytes.length === 0 || bytes.length > 4096) throw new InvalidActivityTaskTokenError('empty or longer than any token');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new InvalidActivityTaskTokenError('not an activity task token (not JSON)');
  }
  if (parsed === null || typeof parsed !== 'object' || parsed.v !== VERSION) throw new InvalidActivityTaskTokenError('not an activity task token (unknown version)');
  for (const name of STRING_FIELDS) if (typeof parsed[name] !== 'string' || parsed[name] === '') throw new InvalidActivityTaskTokenError(`lacks '${name}'`);
  for (const name of INTEGER_FIELDS) if (!Number.isSafeInteger(parsed[name]) || (parsed[name] as number) < 1) throw new InvalidActivityTaskTokenError(`lacks '${name}'`);
  const { namespace, taskQueue, workflowId, runId, activityId, scheduledEventId, attempt } = parsed as unknown as ActivityTaskTokenData;
  return { namespace, taskQueue, workflowId, runId, activityId, scheduledEventId, attempt };
}
