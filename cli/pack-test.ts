import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { checkPack } from '../core/packs/test-kit.js';
import { loadOnePack } from './pack-source.js';

export interface PackTestOptions {
  rows?: number;
  seed?: number;
  kitOnly?: boolean;
}

const TEST_FILE = /\.test\.(ts|mts|js|mjs)$/;

/**
 * `finsynth pack test DIR`: the pack test kit on the pack (as a third party's CI would run it), then the pack's own
 * tests with node's test runner, given this finsynth's TypeScript loader and pack resolution hooks, so that the pack's
 * folder needs nothing installed: `finsynth/sdk` and `finsynth/test-kit` resolve to this finsynth.
 */
export async function packTest(dir: string, options: PackTestOptions): Promise<number> {
  const { name } = await loadOnePack(dir);
  const report = await checkPack(resolve(dir), { rows: options.rows, seed: options.seed });
  const tables = Object.entries(report.tables).map(
    ([table, { rows }]) => `${table} (${rows.toLocaleString('en')} rows)`,
  );
  process.stdout.write(`the pack "${name}" passes the pack test kit: ${tables.join(', ')}\n`);
  if (options.kitOnly) return 0;
  const folder = statSync(resolve(dir)).isDirectory() ? resolve(dir) : resolve(dir, '..');
  const files = testFiles(folder);
  if (files.length === 0) return 0;
  process.stdout.write(`its own tests: ${files.map((file) => relative(folder, file)).join(', ')}\n`);
  return runTests(folder, files);
}

/** The pack's test files, outside node_modules and hidden folders. */
function testFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (TEST_FILE.test(entry.name)) found.push(path);
  }
  return found.sort();
}

/** node --test over `files`, with tsx and the pack hooks: its exit code, 1 for any failure. */
function runTests(folder: string, files: string[]): Promise<number> {
  const imports = [import.meta.resolve('tsx'), import.meta.resolve('../core/packs/register-pack-hooks.mjs')];
  const child = spawn(process.execPath, [...imports.flatMap((url) => ['--import', url]), '--test', ...files], {
    cwd: folder,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done(code === 0 ? 0 : 1));
  });
}
