/**
 * The schema registry could not be reached or refused a request. Retriable when the registry may
 * recover (no HTTP status, 429, 5xx): the engine must retry, not dead-letter, on these.
 */
export class SchemaRegistryError extends Error {
  /** Stable machine-readable reason. */
  readonly code = 'SCHEMA_REGISTRY_ERROR';
  /** True for network errors, 429 and 5xx. */
  readonly retriable: boolean;
  /** The registry's HTTP status, if it answered. */
  readonly status: number | undefined;

  /**
   * @param message what was asked (subject or schema id)
   * @param status the HTTP status, if any
   */
  constructor(message: string, status: number | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SchemaRegistryError';
    this.status = status;
    this.retriable = status === undefined || status === 429 || status >= 500;
  }
}
