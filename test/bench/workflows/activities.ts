/** The trivial activity of the benchmark workflows: returns its input. */
export async function step(payload: string): Promise<string> {
  return payload;
}
