import { describe } from 'node:test';
import { shardLifecycleConformance } from './shard-lifecycle-conformance.js';

describe('the shard lifecycle on the embedded backend', () => shardLifecycleConformance('embedded'));
