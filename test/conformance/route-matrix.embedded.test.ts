import { describe } from 'node:test';
import { routeMatrixConformance } from './route-matrix-conformance.js';

describe('every route × every kind of caller, gateway with --auth on the embedded log', () => routeMatrixConformance('embedded'));
