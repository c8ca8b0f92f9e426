import { EncryptedPayload } from './encrypted-payload.js';
import type { Payload } from './payload.js';

/** The data subject a payload's metadata names (`logbook-subject`), if any. */
export function payloadSubjectOf(payload: Payload): string | undefined {
  return payload.metadata[EncryptedPayload.subjectKey]?.toString('utf8');
}

/** A copy of the payload whose metadata names `subject` (replacing any subject it named). */
export function withPayloadSubject(payload: Payload, subject: string): Payload {
  return { metadata: { ...payload.metadata, [EncryptedPayload.subjectKey]: Buffer.from(subject, 'utf8') }, data: payload.data };
}
