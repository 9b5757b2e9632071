import { gzipSync } from 'node:zlib';
import { compress as zstdCompress, init as initZstd } from '@bokuweb/zstd-wasm';
import type { ParquetWriter } from 'hyparquet-writer';
import snappy from 'snappy';
import type { Format } from '../codegen/writers.js';

/** What the pool writes a chunk as: text in one of the writers' formats, or a Parquet row group. */
export type ChunkFormat = Format | 'parquet';

/** The compressions a Parquet file may use inside it (per page), as a config names them. */
export const PARQUET_COMPRESSIONS = ['snappy', 'zstd', 'gzip', 'none'] as const;
export type ParquetCompression = (typeof PARQUET_COMPRESSIONS)[number];

type WriterOptions = ConstructorParameters<typeof ParquetWriter>[0];
export type Codec = NonNullable<WriterOptions['codec']>;
type Compressors = NonNullable<WriterOptions['compressors']>;

export const CODECS: Record<ParquetCompression, Codec> = {
  snappy: 'SNAPPY',
  zstd: 'ZSTD',
  gzip: 'GZIP',
  none: 'UNCOMPRESSED',
};

/** zstd's default level: what DuckDB and Arrow write too. */
const ZSTD_LEVEL = 3;

/**
 * Native snappy (hyparquet-writer's own is JavaScript, and cost more than the rest of a page's encoding),
 * zstd in WebAssembly (Node 20's zlib has none) and gzip from zlib; each a pure function of its input, so
 * that the same rows give the same bytes.
 */
export const compressors: Compressors = {
  // Copied out: the external buffer snappy 7.4.3 returns otherwise is never freed, even by a full collection
  // (measured: RSS grew by 265 KB per call of 200 KB, and flat when copied), which was most of a Parquet job's RSS.
  SNAPPY: (input) => snappy.compressSync(asBuffer(input), { copyOutputData: true }),
  ZSTD: (input) => zstdCompress(input, ZSTD_LEVEL),
  GZIP: (input) => gzipSync(input),
};

let zstdReady: Promise<void> | undefined;

/** zstd's WebAssembly module is compiled once per thread, before the first page it compresses. */
export function codecReady(compression: ParquetCompression): Promise<void> | undefined {
  if (compression !== 'zstd') return undefined;
  return (zstdReady ??= initZstd());
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
