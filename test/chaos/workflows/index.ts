/** Every workflow of the fault harness, served by the `chaos` task queue's workers. */
export { chaosSteps } from './chaos-steps.js';
