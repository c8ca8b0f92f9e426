import { describe } from 'node:test';
import { cronWorkflowsConformance } from './cron-workflows-conformance.js';

describe('cron workflows on the embedded backend', () => cronWorkflowsConformance('embedded'));
