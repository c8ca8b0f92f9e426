/** The trivial activity of the benchmark workflows: returns its input. */
export async function step(payload: string): Promise<string> {
  return payload;
}

/** The worker's wall clock (ms since the epoch) when the activity ran: when a continuation got this far. */
export async function wallClock(): Promise<number> {
  return Date.now();
}
