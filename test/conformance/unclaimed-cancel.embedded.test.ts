import { describe } from 'node:test';
import { unclaimedCancelConformance } from './unclaimed-cancel-conformance.js';

describe('cancelling an unclaimed activity on the embedded backend', () => unclaimedCancelConformance('embedded'));
