import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** The repository's root: esbuild works relative to it, so the output does not depend on where the clone lies. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the committed build lives, served by api/routes/console.ts. */
export const DIST = fileURLToPath(new URL('dist/', import.meta.url));

/** What the page loads first: its script and its stylesheet; every other file is a chunk they load on demand. */
export interface ConsoleManifest {
  script: string;
  style: string;
  files: string[];
}

/**
 * @finsynth/client imports Node built-ins for what only Node does (downloads to files, webhook signatures):
 * in the browser they resolve to stand-ins, and Idempotency-Keys come from the Web Crypto API.
 */
const nodeShims: Plugin = {
  name: 'node-shims',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, () => ({ path: join(ROOT, 'console/src/client/node-shims.ts') }));
  },
};

/** Bundles the console into `outdir`: content-addressed files and the manifest that names the first two. */
export async function buildConsole(outdir: string = DIST): Promise<ConsoleManifest> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { console: 'console/src/main.tsx' },
    bundle: true,
    // The editor and the chart are loaded by the pages that show them, so the first page stays small.
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    charset: 'utf8',
    entryNames: '[name].[hash]',
    chunkNames: '[name].[hash]',
    assetNames: '[name].[hash]',
    // The client reads these where Node has them; the console passes its key and address explicitly.
    define: {
      'process.env.FINSYNTH_KEY': 'undefined',
      'process.env.FINSYNTH_URL': 'undefined',
      'process.versions.node': '"browser"',
    },
    // The client's sources, so that the console needs no build of the package first.
    alias: { '@finsynth/client': './clients/typescript/src/index.ts' },
    plugins: [nodeShims],
    metafile: true,
    // Named as the committed folder, whatever `outdir` is: the bytes must not depend on where they are written.
    outdir: 'console/dist',
    write: false,
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const [entry] = outputs.filter(([, output]) => output.entryPoint === 'console/src/main.tsx');
  if (!entry?.[1].cssBundle) throw new Error('the console build has no entry script and stylesheet');
  const manifest: ConsoleManifest = {
    script: basename(entry[0]),
    style: basename(entry[1].cssBundle),
    files: result.outputFiles.map((file) => basename(file.path)).sort(),
  };
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  for (const file of result.outputFiles) await writeFile(join(outdir, basename(file.path)), file.contents);
  await writeFile(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The SHA-256 of every file of a built folder, by name: two builds are the same when these are. */
export async function digestsOf(folder: string): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const name of (await readdir(folder)).sort())
    digests[name] = createHash('sha256')
      .update(await readFile(join(folder, name)))
      .digest('hex');
  return digests;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = await buildConsole();
  console.log(`console built into ${DIST}: ${manifest.files.join(', ')}`);
}
