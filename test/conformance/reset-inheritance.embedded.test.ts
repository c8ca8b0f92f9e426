import { describe } from 'node:test';
import { resetInheritanceConformance } from './reset-inheritance-conformance.js';

describe('reset of runs with children or updates before the point, on the embedded backend', () => resetInheritanceConformance('embedded'));
