/** Every benchmark workflow, served by the `bench` task queue's worker. */
export { threeSteps } from './three-steps.js';
