/**
 * The bytes of every built-in pack's every table, in every format and two locales, as SHA-256 digests:
 * what golden-bytes.test.ts holds the engine to. A change to the engine's speed must give the same
 * bytes; a change that means to alter a pack's output updates the fixture, by running this file:
 *
 *   node --import tsx test/core/generation/golden-bytes.ts
 *
 * and says so in its commit.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FORMATS } from '../../../core/generation/codegen/writers.js';
import { loadPacks } from '../../../core/packs/loader.js';
import { generateInline, parquetInline, planFor } from './support.js';

export const GOLDEN_FIXTURE = fileURLToPath(new URL('./fixtures/golden-bytes.json', import.meta.url));

const SEED = 42;
const LOCALES = ['en_GB', 'de'];
/** Rows per table, over chunks of CHUNK_ROWS, so that chunk boundaries are crossed. */
const ROWS = 2000;
const CHUNK_ROWS = 700;

/**
 * `<pack>.<table>.<locale>.<format>` → the digest of that table's text, generated inline chunk by chunk (UTF-8);
 * `.parquet`: of its Parquet file (snappy), one row group per chunk.
 */
export async function goldenDigests(): Promise<Record<string, string>> {
  const registry = await loadPacks();
  const digests: Record<string, string> = {};
  for (const sector of registry.names().sort()) {
    const pack = registry.require(sector);
    for (const table of Object.keys(pack.tables)) {
      for (const locale of LOCALES) {
        const plan = {
          ...planFor(pack, { seed: SEED, locale, tables: [{ name: table, rows: ROWS }] }),
          chunk_rows: CHUNK_ROWS,
        };
        for (const format of FORMATS)
          digests[`${sector}.${table}.${locale}.${format}`] = createHash('sha256')
            .update(generateInline(pack, plan, table, format))
            .digest('hex');
        digests[`${sector}.${table}.${locale}.parquet`] = createHash('sha256')
          .update(parquetInline(pack, plan, table))
          .digest('hex');
      }
    }
  }
  return digests;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(GOLDEN_FIXTURE, `${JSON.stringify(await goldenDigests(), null, 2)}\n`);
  console.log(`wrote ${GOLDEN_FIXTURE}`);
}
