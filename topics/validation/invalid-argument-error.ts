/**
 * The error every writer raises for input that breaks a rule of `topics/validation/`: a client
 * before it sends, the gateway before it writes (HTTP 400 with the same code), the engine when it
 * reads such input from a topic (as an `InvalidArgument` rejection).
 * @module
 */
import { LogbookError } from '../errors.js';

/** Input that breaks a validation rule; the message names the field and the rule. Never retriable. */
export class InvalidArgumentError extends LogbookError {
  constructor(message: string) {
    super('INVALID_ARGUMENT', message);
  }
}

/**
 * Throws when a rule found a problem.
 * @throws InvalidArgumentError with the problem as its message
 * @example
 * assertValid(namespaceProblem('a.b')); // throws: namespace 'a.b' may contain only letters, …
 */
export function assertValid(problem: string | null): void {
  if (problem !== null) throw new InvalidArgumentError(problem);
}

/** The first problem of several rules, or null when all pass (rules run in order, lazily). */
export function firstProblem(...rules: ReadonlyArray<() => string | null>): string | null {
  for (const rule of rules) {
    const problem = rule();
    if (problem !== null) return problem;
  }
  return null;
}
