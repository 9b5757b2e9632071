/**
 * A JSON document a test reads: an answer's body, a problem, the served OpenAPI document, an event's data.
 * Untyped on purpose: the test reads the members it expects, and its assertions on them are the check.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the assertions on its members are the type check
export type JsonBody = any;
