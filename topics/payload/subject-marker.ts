/**
 * `withSubject`: how code says which data subject (a customer, a patient) a value belongs to, so
 * an encrypting codec encrypts it under that subject's key. Pure and synchronous, with no imports,
 * because workflow code calls it inside the deterministic sandbox: the mark is a plain object the
 * data converter recognises, never a symbol or a class (those do not survive the sandbox's realm).
 * @module
 */

/** The property that marks a value; the converter turns the mark into `logbook-subject` metadata. */
export const SUBJECT_MARK = '$logbookSubject';

/** A value marked with its data subject (see {@link withSubject}). */
export interface SubjectMarked<T = unknown> {
  readonly [SUBJECT_MARK]: string;
  readonly value: T;
}

/**
 * Marks `value` as personal data of subject `id`: its payload carries the subject, and an
 * encrypting codec encrypts it under that subject's key (erase the key and it is unreadable).
 * The receiver gets `value` itself, unmarked. Typed as `T` so it drops into any argument list.
 *
 * @example
 * await client.workflow.start(onboard, { taskQueue: 'crm', workflowId: 'c-42', args: [withSubject('customer-42', profile)] });
 * return withSubject(customerId, { iban });   // an activity's result
 * @throws TypeError when `id` is not a non-empty string
 */
export function withSubject<T>(id: string, value: T): T {
  if (typeof id !== 'string' || id.length === 0) throw new TypeError('withSubject needs a non-empty subject id');
  const marked: SubjectMarked<T> = { [SUBJECT_MARK]: id, value };
  return marked as unknown as T;
}

/** True for a value {@link withSubject} marked (exactly the mark and the value). */
export function isSubjectMarked(value: unknown): value is SubjectMarked {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && typeof (value as Record<string, unknown>)[SUBJECT_MARK] === 'string' && keys.includes('value');
}
