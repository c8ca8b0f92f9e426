/**
 * The error catalog of Logbook. Every error the engine raises or sends across a topic carries a
 * stable `code` (matched by code, never by `instanceof`, once it has crossed a process boundary),
 * a `retriable` flag that says whether the same call may succeed if repeated, and an optional
 * `cause`. Subclasses are named by the remedy the caller must apply.
 */
export class LogbookError extends Error {
  /** Stable, documented identifier of this kind of failure. */
  readonly code: string;
  /** True when repeating the same operation unchanged may succeed. */
  readonly retriable: boolean;

  constructor(code: string, message: string, options: { retriable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retriable = options.retriable ?? false;
  }
}

/**
 * Another owner initialised the same transactional id: this process is a zombie for that shard.
 * Remedy: stop the shard at once and do not re-initialise until a fresh assignment gives it back.
 */
export class FencedError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('FENCED', message, { cause });
  }
}

/**
 * A send, commit or abort failed in a way that leaves the transaction's outcome unknown: the
 * broker may or may not have committed it. Remedy: re-fence (re-initialise the transactional
 * producer) and restore state from the changelog before processing again.
 */
export class CommitOutcomeUnknownError extends LogbookError {
  /** `retriable`: the failure came from the infrastructure (a connection, a timeout), not from what was sent. */
  constructor(message: string, cause?: unknown, retriable = false) {
    super('COMMIT_OUTCOME_UNKNOWN', message, { cause, retriable });
  }
}

/** A record (or a payload in it) exceeds a configured size limit; it was not sent. */
export class RecordTooLargeError extends LogbookError {
  constructor(message: string) {
    super('RECORD_TOO_LARGE', message);
  }
}

/** A failure that is expected to clear by itself (leader moved, coordinator loading, timeout). */
export class RetriableLogError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('LOG_RETRIABLE', message, { retriable: true, cause });
  }
}

/** The existing topics do not match the configured catalog (for example a different shard count). */
export class TopicMismatchError extends LogbookError {
  constructor(message: string) {
    super('TOPIC_MISMATCH', message);
  }
}

/** Another process holds the embedded data directory. */
export class DataDirectoryLockedError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('DATA_DIRECTORY_LOCKED', message, { cause });
  }
}

/** The local state store is unusable and must be wiped and restored from the changelogs. */
export class StoreCorruptedError extends LogbookError {
  constructor(message: string, cause?: unknown) {
    super('STORE_CORRUPTED', message, { cause });
  }
}
