#!/usr/bin/env node
// The published entry point stays plain JavaScript so that `npx finsynth` works without a build step:
// it registers tsx's loader (inherited by piscina's worker threads) and hands over to the TypeScript CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
