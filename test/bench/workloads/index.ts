import type { Workload } from '../bench-context.js';
import { speedOfLightWorkload } from './speed-of-light.js';
import { w1Workload } from './w1.js';
import { w2Workload } from './w2.js';
import { w3Workload } from './w3.js';

/** Every workload of the harness, in the order a full run takes them. */
export const WORKLOADS: readonly Workload[] = [w1Workload, w2Workload, w3Workload, speedOfLightWorkload];

/** The workloads `--quick` runs when `--workloads` is not given. */
export const QUICK_WORKLOADS: readonly string[] = ['w1', 'sol'];
