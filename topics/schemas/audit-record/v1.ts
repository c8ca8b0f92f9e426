/**
 * AuditRecord v1 — a value of `logbook.audit` (key: the namespace, so one namespace's trail is in
 * one partition, in order): one mutating call of the gateway API — who made it, what it was, which
 * namespace and workflow it touched, when, and how it ended.
 *
 * It never holds a request's or response's body: inputs, signal arguments, results and search
 * attributes may carry personal data, and the audit topic is kept far longer than any history
 * (crypto-shredding a subject could not reach a copy here). Only identifiers (namespace, workflow
 * id, run id, schedule or mapping name, request id) and the error code of a refusal are recorded.
 * @module
 */
import { field, optional, record, timestampMillis } from '../avro-schema.js';
import { defineSchema } from '../define-schema.js';

/** One audited API call. */
export interface AuditRecord {
  /** When the answer was sent (epoch ms). */
  time: number;
  /** Who called: the token's `sub`, the certificate's subject, or `anonymous` without authentication. */
  principalSubject: string;
  /** How the caller proved it: `jwt`, `mtls`, `peer` or `none` (a string, so a new method needs no new schema). */
  principalMethod: string;
  /** The caller's request id (the body's `requestId`, else the `x-request-id` header), if it sent one. */
  requestId: string | null;
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** The route pattern, e.g. `/api/v1/namespaces/:namespace/workflows/:workflowId/terminate` — never the raw path. */
  route: string;
  /** What the call does, in the API's words, e.g. `TerminateWorkflow`. */
  action: string;
  /** The namespace the call is about; `*` for a call about the deployment (ingress mappings). */
  namespace: string;
  workflowId: string | null;
  runId: string | null;
  /** The schedule id or ingress mapping name a call about one of those names. */
  resourceId: string | null;
  /** The HTTP status the caller got. */
  statusCode: number;
  /** The error code of a refused or failed call (the answer's `code`); null when it succeeded. */
  errorCode: string | null;
  /** The peer address of the connection (a proxy's, behind one). */
  remoteAddress: string | null;
  /** The gateway node that received the call (its advertised endpoint). */
  nodeId: string;
}

/** Avro schema of `logbook.AuditRecord`, version 1. Frozen. */
export const auditRecordSchemaV1 = defineSchema(
  record(
    'logbook.AuditRecord',
    [
      field('time', timestampMillis),
      field('principalSubject', 'string'),
      field('principalMethod', 'string'),
      optional('requestId', 'string'),
      field('method', 'string'),
      field('route', 'string'),
      field('action', 'string'),
      field('namespace', 'string'),
      optional('workflowId', 'string'),
      optional('runId', 'string'),
      optional('resourceId', 'string'),
      field('statusCode', 'int'),
      optional('errorCode', 'string'),
      optional('remoteAddress', 'string'),
      field('nodeId', 'string'),
    ],
    'One mutating call of the gateway API: who, what, which namespace and workflow, when, outcome. Never a body.',
  ),
);
