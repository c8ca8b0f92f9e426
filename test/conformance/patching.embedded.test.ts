import { describe } from 'node:test';
import { patchingConformance } from './patching-conformance.js';

describe('versioning with patched() / deprecatePatch() on the embedded backend', () => patchingConformance('embedded'));
