import { LogbookError } from '../topics/errors.js';

/** Phases of a changelog restore, as in Kafka Streams' StoreChangelogReader. */
export const RestorePhase = {
  Registered: 'REGISTERED',
  Restoring: 'RESTORING',
  Completed: 'COMPLETED',
  Failed: 'FAILED',
} as const;
export type RestorePhase = (typeof RestorePhase)[keyof typeof RestorePhase];

/** Legal moves; anything else is a bug and throws. A completed or failed store may restore again. */
const TRANSITIONS: Readonly<Record<RestorePhase, readonly RestorePhase[]>> = {
  REGISTERED: ['RESTORING'],
  RESTORING: ['COMPLETED', 'FAILED'],
  COMPLETED: ['RESTORING'],
  FAILED: ['RESTORING'],
};

/** The restore state of one store: a transition table where an illegal move throws. */
export class RestoreMachine {
  private current: RestorePhase = RestorePhase.Registered;

  get phase(): RestorePhase {
    return this.current;
  }

  start(): void {
    this.move(RestorePhase.Restoring);
  }

  complete(): void {
    this.move(RestorePhase.Completed);
  }

  fail(): void {
    this.move(RestorePhase.Failed);
  }

  private move(to: RestorePhase): void {
    if (!TRANSITIONS[this.current].includes(to)) {
      throw new LogbookError('ILLEGAL_RESTORE_TRANSITION', `a store cannot move from ${this.current} to ${to}`);
    }
    this.current = to;
  }
}
