import { describe } from 'node:test';
import { shardLifecycleConformance } from './shard-lifecycle-conformance.js';

describe('the shard lifecycle on the real Kafka broker', () => shardLifecycleConformance('kafka'));
