import { describe } from 'node:test';
import { patchingConformance } from './patching-conformance.js';

describe('versioning (patched, deprecatePatch) and side effects on the real Kafka broker', () => patchingConformance('kafka'));
