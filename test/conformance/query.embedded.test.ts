import { describe } from 'node:test';
import { queryConformance } from './query-conformance.js';

describe('queries on the embedded backend', () => queryConformance('embedded'));
