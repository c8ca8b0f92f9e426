/**
 * The cancellations a worker read for attempts it was not running, remembered for a while: a
 * control record can arrive before the task it names starts here (a redelivered task whose claim is
 * being confirmed, a task still waiting for its slot), and the engine may not send it again — an
 * unclaimed attempt's cancellation is sent once. Bounded: the oldest is forgotten first.
 */
export class RecentCancellations {
  readonly #reasons = new Map<string, string>();

  constructor(readonly capacity = 10_000) {}

  /** Remembers that the activity `key` names was asked to cancel, for `reason`. */
  remember(key: string, reason: string): void {
    this.#reasons.delete(key);
    this.#reasons.set(key, reason);
    if (this.#reasons.size > this.capacity) this.#reasons.delete(this.#reasons.keys().next().value as string);
  }

  /** The reason `key` was asked to cancel, if remembered; forgets it. */
  take(key: string): string | undefined {
    const reason = this.#reasons.get(key);
    this.#reasons.delete(key);
    return reason;
  }
}
