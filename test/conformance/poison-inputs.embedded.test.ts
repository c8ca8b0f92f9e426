import { describe } from 'node:test';
import { poisonInputsConformance } from './poison-inputs-conformance.js';

describe('poison inputs on the embedded backend', () => poisonInputsConformance('embedded'));
