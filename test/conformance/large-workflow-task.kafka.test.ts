import { describe } from 'node:test';
import { largeWorkflowTaskConformance } from './large-workflow-task-conformance.js';

describe('workflow tasks larger than a record on the real Kafka broker', () => largeWorkflowTaskConformance('kafka'));
