import { LogbookError } from '../errors.js';
/**
 * The schema registry could not be reached or refused a request. Retriable when the registry may
 * recover (no HTTP status, 429, 5xx): the engine must retry, not dead-letter, on these.
 */
export class SchemaRegistryError extends LogbookError {
  /** The registry's HTTP status, if it answered. */
  readonly status: number | undefined;

  /**
   * @param message what was asked (subject or schema id)
   * @param status the HTTP status, if any
   */
  constructor(message: string, status: number | undefined, options?: { cause?: unknown }) {
    // Network errors, 429 and 5xx may clear: the engine retries instead of dead-lettering.
    super('SCHEMA_REGISTRY_ERROR', message, { ...options, retriable: status === undefined || status === 429 || status >= 500 });
    this.status = status;
  }
}
