import type { ParquetWriter } from 'hyparquet-writer';
import { currencyByCode } from '../reference-data/currencies.js';
import { parseInstant } from '../types/parse-instant.js';

/** A column of the Parquet schema as hyparquet-writer takes it. */
export type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

/** What the Parquet type of a column depends on: its data type, its parameters and whether it may be null. */
export interface ParquetColumnSource {
  name: string;
  type: string;
  params: Record<string, unknown>;
  nullable: boolean;
}

/**
 * How a column is stored in Parquet: its schema element, whether its values are dictionary-encoded
 * whatever the chunk holds (enums), and the conversion of a row's value to the value hyparquet-writer takes.
 */
export interface ParquetColumn {
  element: SchemaElement;
  dictionary: boolean;
  convert: (value: unknown) => unknown;
  /**
   * A row's value as the integer stored (a number, never a BigInt: INT64 values are safe integers here),
   * 1 or 0 for a boolean, null for a null; undefined for text columns. The direct encoder writes these.
   */
  integer?: (value: unknown) => number | null;
  /** The type as the catalog shows it (`DECIMAL(18,2)`, `TIMESTAMP(MICROS,UTC)`, …). */
  name: string;
}

/** Precision of every decimal: 18 digits fit an INT64, which readers handle natively. */
export const DECIMAL_PRECISION = 18;
/** The scale of an amount whose currency varies by row: enough for every ISO 4217 currency's minor units. */
export const MIXED_CURRENCY_SCALE = 4;
/**
 * Digits an amount may have: its unscaled value is a safe integer (below 2^53), so that it is exact as a
 * JavaScript number, which the direct encoder writes without a BigInt per cell.
 */
const SAFE_DIGITS = 15;
const DAY_MS = 86_400_000;
const MAX_SAFE_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000) - 1;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const POW10 = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1e9, 1e10];

/** A value the column's Parquet type cannot hold: the job fails with the column and the value named. */
export class ParquetValueError extends Error {
  constructor(column: string, value: unknown, expected: string) {
    super(`column "${column}" holds ${JSON.stringify(value) ?? String(value)}, which is not ${expected}`);
  }
}

/** The Parquet column of a table's column: the mapping table of docs/configs.md. */
export function parquetColumn(source: ParquetColumnSource): ParquetColumn {
  const { name, type, params, nullable } = source;
  const repetition_type = nullable ? 'OPTIONAL' : 'REQUIRED';
  const orNull =
    <T>(convert: (value: unknown) => T) =>
    (value: unknown): T | null =>
      value === null || value === undefined ? requireNullable(name, nullable, value) : convert(value);
  switch (type) {
    case 'integer': {
      const int32 = fitsInt32(params.min) && fitsInt32(params.max);
      const integer = (value: unknown) => integerOf(name, value);
      return {
        element: { name, repetition_type, type: int32 ? 'INT32' : 'INT64' },
        dictionary: false,
        convert: int32 ? orNull(integer) : orNull((value) => BigInt(integer(value))),
        integer: orNull(integer),
        name: int32 ? 'INT32' : 'INT64',
      };
    }
    case 'decimal':
      return decimalColumn(name, repetition_type, typeof params.scale === 'number' ? params.scale : 2, orNull);
    case 'money':
      return decimalColumn(name, repetition_type, moneyScale(params), orNull);
    case 'boolean': {
      const boolean = (value: unknown) => {
        if (typeof value !== 'boolean') throw new ParquetValueError(name, value, 'a boolean');
        return value;
      };
      return {
        element: { name, repetition_type, type: 'BOOLEAN' },
        dictionary: false,
        convert: orNull(boolean),
        integer: orNull((value) => (boolean(value) ? 1 : 0)),
        name: 'BOOLEAN',
      };
    }
    case 'date': {
      const days = orNull((value) => {
        const ms = typeof value === 'string' ? parseInstant(value) : NaN;
        if (!Number.isFinite(ms)) throw new ParquetValueError(name, value, 'a date (YYYY-MM-DD)');
        return Math.floor(ms / DAY_MS);
      });
      return {
        element: { name, repetition_type, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
        dictionary: false,
        convert: days,
        integer: days,
        name: 'DATE',
      };
    }
    case 'timestamp': {
      // Whole milliseconds, as the text formats print them: the same instant in every format.
      const micros = (value: unknown) => {
        const ms = typeof value === 'number' ? value : typeof value === 'string' ? parseInstant(value) : NaN;
        // Microseconds held exactly by a number: instants within about 285 years of 1970.
        if (!(Math.abs(ms) <= MAX_SAFE_MS))
          throw new ParquetValueError(name, value, 'an instant (ISO 8601 or milliseconds) before the year 2255');
        return Math.floor(ms) * 1000;
      };
      return {
        element: {
          name,
          repetition_type,
          type: 'INT64',
          converted_type: 'TIMESTAMP_MICROS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
        },
        dictionary: false,
        convert: orNull((value) => BigInt(micros(value))),
        integer: orNull(micros),
        name: 'TIMESTAMP(MICROS,UTC)',
      };
    }
    default: {
      const dictionary = type === 'enum';
      return {
        element: {
          name,
          repetition_type,
          type: 'BYTE_ARRAY',
          converted_type: 'UTF8',
          logical_type: { type: 'STRING' },
        },
        dictionary,
        convert: orNull(text),
        name: dictionary ? 'STRING (dictionary)' : 'STRING',
      };
    }
  }
}

function decimalColumn(
  name: string,
  repetition_type: 'OPTIONAL' | 'REQUIRED',
  scale: number,
  orNull: <T>(convert: (value: unknown) => T) => (value: unknown) => T | null,
): ParquetColumn {
  const factor = POW10[scale] ?? 10 ** scale;
  const scaled = (value: unknown) => {
    const unscaled = typeof value === 'number' ? Math.round(value * factor) : NaN;
    if (!(Math.abs(unscaled) <= Number.MAX_SAFE_INTEGER))
      throw new ParquetValueError(name, value, `a number of at most ${SAFE_DIGITS} digits, ${scale} after the point`);
    return unscaled;
  };
  return {
    element: {
      name,
      repetition_type,
      type: 'INT64',
      converted_type: 'DECIMAL',
      scale,
      precision: DECIMAL_PRECISION,
      logical_type: { type: 'DECIMAL', scale, precision: DECIMAL_PRECISION },
    },
    dictionary: false,
    convert: orNull((value) => BigInt(scaled(value))),
    integer: orNull(scaled),
    name: `DECIMAL(${DECIMAL_PRECISION},${scale})`,
  };
}

/**
 * An amount's scale: its fixed currency's minor units; a currency that varies by row gets the largest scale
 * any has, its currency in the column beside it; none (a generator's own amounts) gets cents, as the text formats.
 */
function moneyScale(params: Record<string, unknown>): number {
  if (typeof params.currency === 'string') return currencyByCode.get(params.currency)?.minor_units ?? 2;
  return params.currency_column === undefined ? 2 : MIXED_CURRENCY_SCALE;
}

function fitsInt32(bound: unknown): boolean {
  return typeof bound === 'number' && bound >= INT32_MIN && bound <= INT32_MAX;
}

function integerOf(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ParquetValueError(name, value, 'an integer');
  return value;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function requireNullable(name: string, nullable: boolean, value: unknown): null {
  if (!nullable) throw new ParquetValueError(name, value ?? null, 'a value (the column is not nullable)');
  return null;
}
