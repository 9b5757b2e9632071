import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './options.js';
import { packFiles } from './pack-template.js';

export interface PackNewOptions {
  dir: string;
}

/** A pack's name is the `sector` of generation requests (the manifest's pattern). */
const PACK_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** This finsynth's folder: the scaffold depends on it by path, as a pack's CI would. */
const FINSYNTH_ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * `finsynth pack new NAME`: a third-party sector pack in the new folder NAME, ready to run: `finsynth pack test NAME`
 * passes, `pack preview` shows its table, `generate --packs NAME` and the service (FINSYNTH_PACKS) load it, with
 * nothing installed in its folder. `npm install` there links this finsynth, for an editor's types.
 */
export async function packNew(name: string, options: PackNewOptions): Promise<number> {
  if (!PACK_NAME.test(name))
    throw new UsageError(
      `"${name}" cannot name a pack: a lower-case letter, then up to 39 lower-case letters, digits or _ (it is the ` +
        'sector of generation requests)',
    );
  const folder = resolve(options.dir, name);
  if (existsSync(folder) && readdirSync(folder).length > 0)
    throw new UsageError(`${folder} exists and is not empty: choose another name, or --dir`);
  const finsynth = relative(folder, FINSYNTH_ROOT) || '.';
  const files = packFiles(name, `file:${finsynth.split('\\').join('/')}`);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(resolve(folder, file, '..'), { recursive: true });
    await writeFile(join(folder, file), text, { flag: 'wx' });
  }
  const shown = relative(process.cwd(), folder) || '.';
  process.stdout.write(
    `a sector pack "${name}" in ${shown}/: ${Object.keys(files).join(', ')}\n\n` +
      `  finsynth pack test ${shown}          # the pack test kit, then its own tests\n` +
      `  finsynth pack preview ${shown}       # a few rows of its table\n` +
      `  finsynth generate CONFIG.yaml --out DIR --packs ${shown}\n` +
      `  FINSYNTH_PACKS=${folder} finsynth serve\n\n` +
      'docs/pack-author-guide.md explains every member of a pack.\n',
  );
  return 0;
}
