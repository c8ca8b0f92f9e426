import { describe } from 'node:test';
import { childrenConformance } from './children-conformance.js';

describe('child workflows on the embedded backend', () => childrenConformance('embedded'));
