/**
 * The HTTP status each engine error code stands for (replies carry these codes in their failure):
 * what the gateway answers, and what a client that reaches the engine through Kafka reports, so
 * both tell a caller the same thing (not found, conflict, retry later).
 * @module
 */

/** Status codes of engine error codes (replies carry these codes in their failure). */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  WorkflowExecutionAlreadyStarted: 409,
  WorkflowNotFound: 404,
  RunNotFound: 404,
  WorkflowClosed: 409,
  ResourceExhausted: 429,
  LimitExceeded: 409,
  // A request the engine refuses as sent (a missing field, an oversized payload, a retry policy whose maximum interval is below its initial one).
  InvalidArgument: 400,
  INVALID_DURATION: 400,
  // A namespace guard (issue 15): a plaintext payload for a codec-required task queue, a refused search attribute.
  PlaintextPayloadRefused: 400,
  SearchAttributeRefused: 400,
  // The gateway's authentication (issue 15), also when a peer node refused this node's credential.
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NotSupportedYet: 501,
  SHARD_UNAVAILABLE: 503,
  HISTORY_NOT_INDEXED: 503,
  REPLY_TIMEOUT: 504,
  // Queries (sdk/workflow/queries.ts, sdk/client/query-sender.ts).
  UnknownQuery: 400,
  QueryFailed: 400,
  QUERY_TIMEOUT: 504,
  // No worker of the run's task queue is running: refused at once, as Temporal does.
  NoPollers: 400,
  // Updates (gateway/update-routes.ts): the validator's rejection, a wait for an update the run does not know.
  UpdateRejected: 400,
  UpdateNotFound: 404,
  RECORD_TOO_LARGE: 413,
  // The shard refused the input: applying it would write a record over the limit (say a signal the run's buffer cannot hold).
  OUTPUT_TOO_LARGE: 413,
  PAYLOAD_UNSERIALIZABLE_VALUE: 400,
  // Namespaces (processors/namespaces).
  NamespaceNotFound: 404,
  NamespaceAlreadyExists: 409,
  // Ingress mappings created through the API (processors/ingress/ingress-registry.ts).
  IngressMappingNotFound: 404,
  INVALID_ARGUMENT: 400,
  // A command the gateway built from a request that still does not fit the command schema (the rules
  // of topics/validation catch the known cases first, with better messages): the request's fault.
  ENCODE_INVALID_VALUE: 400,
};

/** The status of an engine error code; undefined for a code without one (a 500, or 503 when retriable). */
export function statusOfErrorCode(code: string): number | undefined {
  return Object.hasOwn(STATUS_BY_CODE, code) ? STATUS_BY_CODE[code] : undefined;
}
