import { describe } from 'node:test';
import { activityRedelivery } from './activity-redelivery.js';

describe('activity task redelivery on the embedded log', () => activityRedelivery('embedded'));
