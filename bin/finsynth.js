#!/usr/bin/env node
// The published entry point stays plain JavaScript so that `npx finsynth` works without a build step:
// it registers tsx's loader (inherited by piscina's worker threads) and hands over to the TypeScript CLI.
import { register } from 'tsx/esm/api';

register();
const { tuneV8 } = await import('../core/runtime/tune-v8.ts');
tuneV8();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
