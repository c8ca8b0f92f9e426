import { describe } from 'node:test';
import { cronWorkflowsConformance } from './cron-workflows-conformance.js';

describe('cron workflows on the real Kafka broker', () => cronWorkflowsConformance('kafka'));
