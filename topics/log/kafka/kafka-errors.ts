import { CommitOutcomeUnknownError, FencedError, LogbookError, RecordTooLargeError, RetriableLogError } from '../../errors.js';

/** Broker error types that mean another producer owns the transactional id now. */
const FENCED_TYPES = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED']);
/** PRODUCER_FENCED (KIP-588) is newer than KafkaJS's error table; it may arrive as a bare code. */
const PRODUCER_FENCED_CODE = 90;

/** What Logbook reads of a KafkaJS error. */
export interface KafkaJsErrorShape {
  readonly name?: string;
  readonly type?: string;
  readonly code?: number;
  readonly retriable?: boolean;
  readonly cause?: unknown;
  readonly originalError?: unknown;
  readonly message?: string;
}

/** Every error in a KafkaJS error's cause chain (KafkaJS wraps protocol errors in retry errors). */
export function causeChain(error: unknown): KafkaJsErrorShape[] {
  const chain: KafkaJsErrorShape[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 10) {
    const e = current as KafkaJsErrorShape;
    chain.push(e);
    current = e.cause ?? e.originalError;
  }
  return chain;
}

/** Broker errors after which an idempotent producer's id or sequence numbers are no longer accepted. */
const BROKEN_PRODUCER_TYPES = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

/** True when an idempotent producer must be replaced: the broker will refuse its next sends too. */
export function breaksIdempotentProducer(error: unknown): boolean {
  return causeChain(error).some((e) => e.type !== undefined && BROKEN_PRODUCER_TYPES.has(e.type));
}

/** True when a KafkaJS error says this producer was fenced by a newer owner of its transactional id. */
export function isFenced(error: unknown): boolean {
  return causeChain(error).some((e) => (e.type !== undefined && FENCED_TYPES.has(e.type)) || e.code === PRODUCER_FENCED_CODE);
}

/**
 * Maps an error thrown by a transactional send, commit or abort to the remedy the caller must
 * apply: `FencedError` (stop) or `CommitOutcomeUnknownError` (re-fence and restore). Errors that
 * are already ours pass through.
 */
export function transactionError(operation: string, transactionalId: string, error: unknown): LogbookError {
  if (error instanceof FencedError || error instanceof CommitOutcomeUnknownError || error instanceof RecordTooLargeError) {
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isFenced(error)) {
    return new FencedError(`${operation} of ${transactionalId} failed: fenced by a newer owner (${message})`, error);
  }
  // Retriable when KafkaJS says so of any error in the chain (a lost connection, a timeout, a
  // moving leader): the shard re-fences either way, but such a failure never counts against its inputs.
  const infrastructure = causeChain(error).some((e) => e.retriable === true);
  return new CommitOutcomeUnknownError(`${operation} of ${transactionalId} failed; its outcome is unknown (${message})`, error, infrastructure);
}

/** Maps an error of a non-transactional operation: retriable ones keep that flag, others become `LogbookError`. */
export function logError(operation: string, error: unknown): LogbookError {
  if (error instanceof LogbookError) return error;
  const message = `${operation} failed: ${error instanceof Error ? error.message : String(error)}`;
  if (causeChain(error).some((e) => e.retriable === true)) return new RetriableLogError(message, error);
  return new LogbookError('LOG_ERROR', message, { cause: error });
}
