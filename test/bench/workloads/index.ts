import type { Workload } from '../bench-context.js';
import { solRatioWorkload } from './sol-ratio.js';
import { speedOfLightWorkload } from './speed-of-light.js';
import { w1Workload } from './w1.js';
import { w1ClosedWorkload } from './w1-closed.js';
import { w2Workload } from './w2.js';
import { w3Workload } from './w3.js';
import { w4Workload } from './w4.js';

/**
 * Every workload of the harness, in the order a full run takes them: sol-ratio reads the results
 * of w1 and sol, and w4 comes last because it kills the engine process.
 */
export const WORKLOADS: readonly Workload[] = [w1Workload, w1ClosedWorkload, speedOfLightWorkload, solRatioWorkload, w2Workload, w3Workload, w4Workload];

/** The workloads `--quick` runs when `--workloads` is not given. */
export const QUICK_WORKLOADS: readonly string[] = ['w1', 'w1c', 'sol', 'sol-ratio'];
