import { describe } from 'node:test';
import { updatesConformance } from './updates-conformance.js';

describe('workflow updates on the embedded backend', () => updatesConformance('embedded'));
