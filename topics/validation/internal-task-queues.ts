/**
 * Task queues the engine itself polls, named here (a contract both the SDK's scheduler and the
 * history state machine read) so the engine can tell its own payloads from users'. No imports: the
 * scheduler workflow's bundle loads this file.
 * @module
 */

/**
 * The internal task queue every engine node polls for scheduler workflow and activity tasks. Its
 * payloads are the engine's own JSON (schedule definitions, notes, descriptions), which is why a
 * namespace's `*` in `codecRequiredTaskQueues` leaves it out (`processors/history/codec-required.ts`).
 */
export const SCHEDULER_TASK_QUEUE = 'logbook-internal-schedules';
