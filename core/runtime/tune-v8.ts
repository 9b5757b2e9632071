import { setFlagsFromString } from 'node:v8';

/**
 * V8's settings for the whole process, worker threads included; called first by the entry point (and the
 * benches, to measure what it runs).
 *
 * Allocation-site pretenuring off: V8 allocates an object site's objects straight in the old generation once
 * most of them survived one scavenge, which a page of events or a chunk's rows alive at that moment can make
 * look true. The store's read then paid for a mark-compact every few pages, in some processes and not in
 * others; nothing here keeps such objects for long (docs/performance.md).
 */
export function tuneV8(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
