/**
 * Golden WorkflowTask v2 cases. Used by `write-fixtures.ts` only.
 * @module
 */
import type { FixtureCase } from '../fixture-samples.js';
import { workflowTaskCases } from './v1-fixture-cases.js';
import type { WorkflowTask } from './v2.js';

const first = workflowTaskCases.find((c) => c.name === 'first-task')!.value;

/** A task of a long history: the worker is told to continue as new. */
export const workflowTaskV2Cases: readonly FixtureCase<WorkflowTask>[] = [
  { name: 'suggest-continue-as-new', value: {
    ...first, scheduledEventId: 10_300, lastEventId: 10_300, startedEventIdHint: 10_301, events: [],
    historySizeBytes: 1_048_576, suggestContinueAsNew: true,
  } },
];
