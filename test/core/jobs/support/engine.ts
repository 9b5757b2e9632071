import { createEngine, type Engine } from '../../../../core/packs/engine.js';

let shared: Promise<Engine> | undefined;

/**
 * One engine, its pool warm, for every jobs test of this process that runs jobs in-process: a pool's
 * workers take about a second to start and load the packs, which each file used to pay again.
 */
export function sharedEngine(): Promise<Engine> {
  shared ??= createEngine({ poolSize: 2, packs: [] });
  return shared;
}

// A root hook (registered outside any describe): the pool closes once every file has run.
after(async () => {
  await (await shared)?.close();
});
