/** Trivial activities of the versioning (patching) test workflows. */
export async function stepA(): Promise<string> {
  return 'A';
}

export async function stepB(): Promise<string> {
  return 'B';
}

/** The step the new code version adds. */
export async function audit(): Promise<string> {
  return 'audited';
}
