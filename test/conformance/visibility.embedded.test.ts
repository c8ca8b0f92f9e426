import { describe } from 'node:test';
import { visibilityConformance } from './visibility-conformance.js';

describe('visibility list and count on the embedded backend', () => visibilityConformance('embedded'));
