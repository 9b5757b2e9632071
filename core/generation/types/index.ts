import type { DataType } from './data-type.js';
import { cardNetwork, boolean, country, currency, enumeration, mcc } from './categorical.js';
import { bic, iban, isin, pan } from './financial.js';
import { code, id, reference, uuid } from './identifiers.js';
import { decimal, integer, money } from './numeric.js';
import {
  city,
  company,
  email,
  firstName,
  lastName,
  personName,
  phone,
  postcode,
  streetAddress,
  text,
} from './people.js';
import { date, timestamp } from './temporal.js';

export type { DataType, Row, Sampler, CompileEnv, JsonSchema } from './data-type.js';

/** Every column type a pack may use: the catalog lists them as they are here. */
export const dataTypes: readonly DataType[] = [
  id,
  reference,
  uuid,
  code,
  integer,
  decimal,
  money,
  boolean,
  enumeration,
  currency,
  country,
  date,
  timestamp,
  iban,
  bic,
  pan,
  cardNetwork,
  mcc,
  isin,
  personName,
  firstName,
  lastName,
  company,
  streetAddress,
  city,
  postcode,
  email,
  phone,
  text,
];

export const dataTypeByName: ReadonlyMap<string, DataType> = new Map(dataTypes.map((type) => [type.name, type]));

/** A data type as the catalog shows it. */
export function describeDataType(type: DataType) {
  return {
    name: type.name,
    description: type.description,
    json_type: type.json_type,
    format: type.format ?? null,
    params: { type: 'object', ...type.params },
    overridable: [...type.overridable],
    example: type.example,
  };
}
