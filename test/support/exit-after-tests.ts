/**
 * Preloaded into every test file's process by `test/run-tests.ts` (`--import`). Once a file's
 * tests have all finished, its process exits at the latest `EXIT_GRACE_MS` later, even if a leaked
 * handle (a socket, a timer) would keep it alive: a leak must not hang CI.
 *
 * Node's own `--test-force-exit` does this at once, and on Node 20 that loses results: in 3 of 6
 * runs, topics/schemas/fixtures.test.ts reported 1 to 14 of its 203 tests less, silently. The grace
 * lets the file's own `after` hooks (which run after this one) and the report finish first; a
 * process with nothing left open exits by itself as soon as it is done.
 * @module
 */
import { after } from 'node:test';

/** Longest a file's cleanup hooks may take after its last test. */
const EXIT_GRACE_MS = 20_000;

// Only in the processes that run test files (Node sets this there), not in the orchestrator.
if (process.env.NODE_TEST_CONTEXT) {
  after(() => {
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  });
}
