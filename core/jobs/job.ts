export * from './events.js';
export * from './state.js';
export * from './decider.js';
export { JobProblems } from './problems.js';
