/**
 * `logbook/testing`: Temporal's `@temporalio/testing` for Logbook — a {@link TestWorkflowEnvironment}
 * (an embedded engine in the test's process, with time skipping on request) and a
 * {@link MockActivityEnvironment} to unit-test activities.
 * @module
 */
export { TestWorkflowEnvironment, type TestWorkflowEnvironmentOptions } from './test-workflow-environment.js';
export { defaultActivityInfo, MockActivityEnvironment } from '../../sdk/testing/mock-activity-environment.js';
