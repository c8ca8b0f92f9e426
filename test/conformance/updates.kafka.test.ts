import { describe } from 'node:test';
import { updatesConformance } from './updates-conformance.js';

describe('workflow updates on the real Kafka broker (8 shards)', () => updatesConformance('kafka'));
