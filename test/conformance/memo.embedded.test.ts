import { describe } from 'node:test';
import { memoConformance } from './memo-conformance.js';

describe('memo at start on the embedded backend', () => memoConformance('embedded'));
