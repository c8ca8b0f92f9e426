import { describe } from 'node:test';
import { taskAnswersConformance } from './task-answers-conformance.js';

describe('workflow and activity tasks are answered before they are committed past, on the embedded backend', () => taskAnswersConformance('embedded'));
