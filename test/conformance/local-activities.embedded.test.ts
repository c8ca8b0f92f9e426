import { describe } from 'node:test';
import { localActivitiesConformance } from './local-activities-conformance.js';

describe('local activities on the embedded backend', () => localActivitiesConformance('embedded'));
