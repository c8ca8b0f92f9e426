/** Trivial activities of the non-determinism test workflows. */
export async function stepA(): Promise<string> {
  return 'A';
}

export async function stepB(): Promise<string> {
  return 'B';
}
