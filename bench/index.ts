/**
 * `npm run bench -- <name> [--json]`: runs bench/<name>.ts, whose `run` prints a human report, or with
 * --json exactly one JSON object on stdout (anything else goes to stderr). Without a name, lists them.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tuneV8 } from '../core/runtime/tune-v8.js';

export interface BenchOptions {
  json: boolean;
  args: string[];
}

const here = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts' && !file.startsWith('_'))
  .map((file) => file.slice(0, -3));

const [name, ...rest] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [--json]`);
  process.exit(name ? 2 : 0);
}
// The service's V8 settings (bin/finsynth.js), so that a bench measures what it runs.
tuneV8();
const bench = (await import(`./${name}.ts`)) as { run(options: BenchOptions): Promise<unknown> };
const result = await bench.run({ json: rest.includes('--json'), args: rest.filter((arg) => arg !== '--json') });
if (rest.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
