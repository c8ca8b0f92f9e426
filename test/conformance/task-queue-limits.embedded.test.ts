import { describe } from 'node:test';
import { taskQueueLimitsConformance } from './task-queue-limits-conformance.js';

describe('task queue limits on the embedded backend', () => taskQueueLimitsConformance('embedded'));
