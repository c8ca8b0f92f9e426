import { describe } from 'node:test';
import { doorValidationConformance } from './door-validation-conformance.js';

describe('validation at the door on the embedded backend', () => doorValidationConformance('embedded'));
