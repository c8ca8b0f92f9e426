import { describe } from 'node:test';
import { workflowRetryConformance } from './workflow-retry-conformance.js';

describe('workflow retry policies and the workflow-task rate limit on the embedded backend', () => workflowRetryConformance('embedded'));
