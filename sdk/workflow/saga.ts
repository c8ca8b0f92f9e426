/**
 * The saga helper: record an undo step after each step that succeeded, and when a later step
 * fails for good, run the undo steps in reverse. A failed compensation is reported, never
 * swallowed, and the run is tagged so an operator can find it with a list query.
 * @module
 */
import { CancellationScope } from './cancellation-scope.js';
import { ApplicationFailure } from './errors.js';
import { currentActivator } from './current-activator.js';

/** The search attribute a saga sets to `true` when one of its compensations failed. */
export const REQUIRES_INTERVENTION = 'RequiresIntervention';

/** A compensation that failed, and why (the message of its innermost cause). */
export interface CompensationFailure {
  readonly name: string;
  readonly error: string;
}

/** What {@link Saga.compensate} did: compensations that succeeded and those that failed, in the order they ran. */
export interface CompensationReport {
  readonly compensated: string[];
  readonly failed: CompensationFailure[];
}

/** Options of a {@link Saga}. */
export interface SagaOptions {
  /**
   * Run every compensation at once instead of one after the other in reverse (for undo steps that
   * do not depend on each other). The report then lists them in reverse order of registration.
   * Default `false`.
   */
  readonly parallelCompensation?: boolean;
  /** Set `RequiresIntervention = true` on the run when a compensation fails. Default `true`. */
  readonly markRequiresIntervention?: boolean;
}

interface Compensation {
  readonly name: string;
  readonly run: () => Promise<unknown>;
}

/**
 * Collects compensations while a workflow makes changes, and undoes them when it must give up.
 *
 * Compensations run in a non-cancellable scope, so a cancelled workflow still undoes its work.
 * When any fails, the run gets the Bool search attribute `RequiresIntervention = true`
 * (`GET …/workflows?query=RequiresIntervention = true` finds it).
 *
 * @example
 * const saga = new Saga();
 * try {
 *   await acts.bookHotel(trip);
 *   saga.addCompensation('cancelHotel', () => acts.cancelHotel(trip));
 *   await acts.chargePayment(trip);
 * } catch (err) {
 *   const report = await saga.compensate();
 *   return { booked: false, ...report };
 * }
 */
export class Saga {
  readonly #compensations: Compensation[] = [];
  readonly #options: SagaOptions;
  #compensating = false;

  constructor(options: SagaOptions = {}) {
    this.#options = options;
  }

  /**
   * Registers the undo step of a step that succeeded (call it right after the step).
   * @param name how the compensation is reported (usually the activity's name)
   * @param run starts the compensation (an activity call); its rejection is reported, not thrown
   * @throws Error once {@link compensate} has started
   */
  addCompensation(name: string, run: () => Promise<unknown>): void {
    if (this.#compensating) throw new Error(`Saga: cannot add compensation '${name}' after compensate() started`);
    this.#compensations.push({ name, run });
  }

  /**
   * Runs the registered compensations, last registered first, continuing past failures; tags the
   * run with `RequiresIntervention = true` when any failed. Each compensation runs at most once:
   * a second call returns an empty report.
   */
  async compensate(): Promise<CompensationReport> {
    this.#compensating = true;
    const pending = this.#compensations.splice(0).reverse();
    const report: CompensationReport = { compensated: [], failed: [] };
    await CancellationScope.nonCancellable(async () => {
      const outcomes = this.#options.parallelCompensation
        ? await Promise.all(pending.map(attempt))
        : await sequentially(pending);
      for (const outcome of outcomes) {
        if (outcome.error === undefined) report.compensated.push(outcome.name);
        else report.failed.push({ name: outcome.name, error: outcome.error });
      }
    });
    if (report.failed.length > 0 && this.#options.markRequiresIntervention !== false) {
      // The command upsertSearchAttributes() issues, pushed here to keep index.ts free of an import cycle.
      currentActivator('Saga.compensate').pushCommand({
        type: 'UpsertWorkflowSearchAttributes',
        searchAttributes: { [REQUIRES_INTERVENTION]: { type: 'Bool', value: true } },
      });
    }
    return report;
  }
}

interface Outcome {
  readonly name: string;
  readonly error: string | undefined;
}

async function sequentially(compensations: Compensation[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const compensation of compensations) outcomes.push(await attempt(compensation));
  return outcomes;
}

async function attempt(compensation: Compensation): Promise<Outcome> {
  try {
    await compensation.run();
    return { name: compensation.name, error: undefined };
  } catch (error) {
    return { name: compensation.name, error: describeFailure(error) };
  }
}

/**
 * The message worth reporting for a failure: an activity failure's application cause (what the
 * activity threw) rather than the wrapper's generic message.
 */
export function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof ApplicationFailure) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
