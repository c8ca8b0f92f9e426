/**
 * The error of a visibility query that cannot be parsed or does not fit the attributes' types.
 * @module
 */

/** A query the gateway answers with 400 `INVALID_QUERY`; the message names the problem and where. */
export class InvalidQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}
