/**
 * The validation rules of the contract: names that become parts of topic names, identifiers,
 * durations, waits and sizes, and their application to the records of the command topic. One
 * definition for the clients, the gateway, the topic catalog and the history state machine.
 * @module
 */
export * from './invalid-argument-error.js';
export * from './name-rules.js';
export * from './value-rules.js';
export * from './command-rules.js';
