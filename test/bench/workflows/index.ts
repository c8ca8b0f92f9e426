/** Every benchmark workflow, served by the `bench` task queue's worker. */
export { threeSteps } from './three-steps.js';
export { threeLocalSteps } from './three-local-steps.js';
export { sleepThenStep } from './sleep-then-step.js';
export { awaitSignals } from './await-signals.js';
