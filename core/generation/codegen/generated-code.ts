/**
 * Functions generated from source text (a table's completion step and row writers), compiled once per
 * text for the thread. Every job gets a new PlanRuntime, which generates the same source again for the
 * same table: closures made by one compiled factory share V8's type feedback and optimised code, while a
 * factory compiled afresh starts cold, and a job's parent tables (a few thousand rows each) then ran mostly
 * unoptimised (cards rows cost 3.9 µs in a new runtime against 1.1 µs in a warm one).
 */
const factories = new Map<string, (...args: unknown[]) => unknown>();
/** Distinct texts kept: tables times formats times the null-rate overrides in use; beyond, the oldest goes. */
const KEPT = 1024;

/** `new Function(...params, body)`, compiled once per distinct parameter list and body. */
export function generatedFactory(params: string[], body: string): (...args: unknown[]) => unknown {
  const text = `${params.join(',')}\n${body}`;
  let factory = factories.get(text);
  if (!factory) {
    if (factories.size >= KEPT) factories.delete(factories.keys().next().value!);
    factory = new Function(...params, body) as (...args: unknown[]) => unknown;
    factories.set(text, factory);
  }
  return factory;
}
