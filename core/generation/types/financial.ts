import { drawIban, IBAN_COUNTRIES } from '../realism/iban.js';
import { drawIsin } from '../realism/isin.js';
import { drawPan } from '../realism/pan.js';
import { bankByBic, ibanFormatByCountry } from '../reference-data/iban-formats.js';
import { cardNetworkByName, cardNetworks } from '../reference-data/card-networks.js';
import { countries } from '../reference-data/countries.js';
import type { Rng } from '../random/prng.js';
import { defineDataType, type Row } from './data-type.js';

export const iban = defineDataType<{ countries?: string[]; country_column?: string }>({
  name: 'iban',
  description:
    "An IBAN (ISO 13616) with valid check digits, the country's length and BBAN structure, " +
    "a real bank's code and the national check digits (BE, DE, ES, FI, FR, IT, NL, NO, PL, PT); " +
    'from `countries`, or the country in `country_column`.',
  json_type: 'string',
  params: {
    properties: {
      countries: { type: 'array', items: { enum: IBAN_COUNTRIES }, minItems: 1 },
      country_column: { type: 'string' },
    },
  },
  overridable: ['countries'],
  example: 'GB33BARC20658259151238',
  compile:
    ({ countries: allowed = IBAN_COUNTRIES, country_column }) =>
    (rng, row: Row) => {
      const wanted = country_column ? String(row[country_column]) : undefined;
      const country = wanted && ibanFormatByCountry.has(wanted) ? wanted : rng.pick(allowed);
      return drawIban(rng, country).iban;
    },
});

/**
 * The BIC that goes with an IBAN: its bank's, for a bank code we know, so that an account's IBAN and BIC
 * always agree; a bank of its country otherwise (an IBAN the pack made itself); null without an IBAN
 * (no account, no bank). A BIC of another country would fail any check of the pair.
 */
function bicOfIban(rng: Rng, value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const format = ibanFormatByCountry.get(value.slice(0, 2));
  if (!format) return rng.pick(allBics);
  const bban = value.slice(4);
  let offset = 0;
  for (const segment of format.bban) {
    if (segment.part === 'bank') {
      const bankCode = bban.slice(offset, offset + segment.length);
      const bank = format.banks.find((candidate) => candidate.bank_code === bankCode);
      if (bank) return bank.bic;
      break;
    }
    offset += segment.length;
  }
  return rng.pick(format.banks).bic;
}

const allBics = [...bankByBic.keys()];

export const bic = defineDataType<{ iban_column?: string; branch?: boolean }>({
  name: 'bic',
  description:
    "A BIC (ISO 9362) of a real bank: with `iban_column`, the BIC of the bank that the row's IBAN names (same " +
    "country, same bank; a bank of the IBAN's country when its bank code is not one we know; " +
    'null when the IBAN is null); `branch: true` adds the XXX branch code.',
  json_type: 'string',
  params: { properties: { iban_column: { type: 'string' }, branch: { type: 'boolean' } } },
  overridable: [],
  example: 'BARCGB22',
  compile:
    ({ iban_column, branch }) =>
    (rng, row: Row) => {
      const value = iban_column ? bicOfIban(rng, row[iban_column]) : rng.pick(allBics);
      return value !== null && branch ? `${value}XXX` : value;
    },
});

export const pan = defineDataType<{ networks?: string[]; network_column?: string }>({
  name: 'pan',
  description:
    "A card number (PAN): Luhn-valid, in the network's IIN ranges and of its length; " +
    "the network is the row's `network_column`, or drawn from `networks` by market share.",
  json_type: 'string',
  params: {
    properties: {
      networks: { type: 'array', items: { enum: cardNetworks.map((n) => n.name) }, minItems: 1 },
      network_column: { type: 'string' },
    },
  },
  overridable: ['networks'],
  example: '4539578763621486',
  compile: ({ networks, network_column }) => {
    const allowed = cardNetworks.filter((network) => !networks || networks.includes(network.name));
    return (rng, row: Row) => {
      const named = network_column ? cardNetworkByName.get(String(row[network_column])) : undefined;
      return drawPan(rng, named ?? rng.pick(allowed));
    };
  },
});

export const isin = defineDataType<{ countries?: string[] }>({
  name: 'isin',
  description:
    'An ISIN (ISO 6166): country prefix, 9-character national number (a valid CUSIP for US and CA, ' +
    '00 and a valid SEDOL for GB and IE) and a valid check digit.',
  json_type: 'string',
  params: {
    properties: { countries: { type: 'array', items: { enum: countries.map((c) => c.alpha2) }, minItems: 1 } },
  },
  overridable: ['countries'],
  example: 'US0378331005',
  compile:
    ({ countries: allowed = ['US', 'GB', 'DE', 'FR', 'NL', 'CH', 'JP'] }) =>
    (rng) =>
      drawIsin(rng, rng.pick(allowed)),
});
