/**
 * Tracks which offsets of one partition are in progress, so that a worker running tasks out of
 * order commits only up to the lowest unfinished one: after a crash nothing unfinished is skipped.
 */
export class OffsetTracker {
  private readonly inFlight = new Set<number>();
  private highestSeen = -1;

  /** Marks an offset as taken. */
  begin(offset: number): void {
    this.inFlight.add(offset);
    this.highestSeen = Math.max(this.highestSeen, offset);
  }

  /** Marks an offset as finished. */
  end(offset: number): void {
    this.inFlight.delete(offset);
  }

  /** True while the offset is running (a redelivered task that is already running is skipped). */
  isRunning(offset: number): boolean {
    return this.inFlight.has(offset);
  }

  /** The next offset to consume after a restart: the lowest unfinished one, or one past the highest seen. */
  committable(): number | undefined {
    if (this.highestSeen < 0) return undefined;
    let lowest = this.highestSeen + 1;
    for (const offset of this.inFlight) lowest = Math.min(lowest, offset);
    return lowest;
  }

  /**
   * Moves the committable position up to `offset` when nothing is in flight: the offsets before it
   * hold nothing left to run (only transaction markers), so a restart may begin there.
   */
  skipTo(offset: number): void {
    if (this.inFlight.size === 0) this.highestSeen = Math.max(this.highestSeen, offset - 1);
  }

  get size(): number {
    return this.inFlight.size;
  }
}
