import type { ByteSink } from '../codegen/byte-sink.js';
import { varint, zigzag } from './encodings.js';

/** Parquet's encodings and page types by their numbers in the format's Thrift definition. */
export const ENCODING = { PLAIN: 0, RLE: 3, DELTA_BINARY_PACKED: 5, DELTA_BYTE_ARRAY: 7, RLE_DICTIONARY: 8 } as const;
export type EncodingName = keyof typeof ENCODING;
const DATA_PAGE_V2 = 3;
const DICTIONARY_PAGE = 2;

// Thrift compact protocol: a field is (id delta << 4 | type), then its value; a struct ends with 0.
const I32 = 5;
const BOOLEAN_FALSE = 2;
const STRUCT = 12;
const STOP = 0;

/** A page's sizes: its bytes as encoded, and as stored (compressed). */
export interface PageSizes {
  uncompressed: number;
  compressed: number;
}

/** The header of a dictionary page, in the Thrift compact protocol, as hyparquet-writer writes one. */
export function dictionaryPageHeader(out: ByteSink, sizes: PageSizes, values: number): void {
  pageStart(out, DICTIONARY_PAGE, sizes);
  field(out, 4, STRUCT); // 7: dictionary_page_header
  i32Field(out, 1, values);
  i32Field(out, 1, ENCODING.PLAIN);
  structEnd(out);
  structEnd(out);
}

/** What a data page (version 2) holds: its values, nulls and rows, and how its parts are stored. */
export interface DataPageV2 {
  values: number;
  nulls: number;
  rows: number;
  encoding: EncodingName;
  definitionBytes: number;
  compressed: boolean;
}

/** The header of a data page, version 2 (levels stored uncompressed before the values). */
export function dataPageV2Header(out: ByteSink, sizes: PageSizes, page: DataPageV2): void {
  pageStart(out, DATA_PAGE_V2, sizes);
  field(out, 5, STRUCT); // 8: data_page_header_v2
  i32Field(out, 1, page.values);
  i32Field(out, 1, page.nulls);
  i32Field(out, 1, page.rows);
  i32Field(out, 1, ENCODING[page.encoding]);
  i32Field(out, 1, page.definitionBytes);
  i32Field(out, 1, 0); // repetition levels: none, the columns are flat
  if (!page.compressed) field(out, 1, BOOLEAN_FALSE); // is_compressed, true when left out
  structEnd(out);
  structEnd(out);
}

function pageStart(out: ByteSink, type: number, sizes: PageSizes): void {
  i32Field(out, 1, type);
  i32Field(out, 1, sizes.uncompressed);
  i32Field(out, 1, sizes.compressed);
}

function field(out: ByteSink, delta: number, type: number): void {
  out.reserve(1);
  out.buffer[out.length++] = (delta << 4) | type;
}

function i32Field(out: ByteSink, delta: number, value: number): void {
  field(out, delta, I32);
  varint(out, zigzag(value));
}

function structEnd(out: ByteSink): void {
  out.reserve(1);
  out.buffer[out.length++] = STOP;
}
