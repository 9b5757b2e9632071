/** ISO 3166-1 countries the generators draw from: alpha-2, alpha-3, name, currency, calling code. */
export interface Country {
  alpha2: string;
  alpha3: string;
  name: string;
  currency: string;
  calling_code: string;
}

export const countries: readonly Country[] = [
  { alpha2: 'AE', alpha3: 'ARE', name: 'United Arab Emirates', currency: 'AED', calling_code: '971' },
  { alpha2: 'AT', alpha3: 'AUT', name: 'Austria', currency: 'EUR', calling_code: '43' },
  { alpha2: 'AU', alpha3: 'AUS', name: 'Australia', currency: 'AUD', calling_code: '61' },
  { alpha2: 'BE', alpha3: 'BEL', name: 'Belgium', currency: 'EUR', calling_code: '32' },
  { alpha2: 'BR', alpha3: 'BRA', name: 'Brazil', currency: 'BRL', calling_code: '55' },
  { alpha2: 'CA', alpha3: 'CAN', name: 'Canada', currency: 'CAD', calling_code: '1' },
  { alpha2: 'CH', alpha3: 'CHE', name: 'Switzerland', currency: 'CHF', calling_code: '41' },
  { alpha2: 'CN', alpha3: 'CHN', name: 'China', currency: 'CNY', calling_code: '86' },
  { alpha2: 'CZ', alpha3: 'CZE', name: 'Czechia', currency: 'CZK', calling_code: '420' },
  { alpha2: 'DE', alpha3: 'DEU', name: 'Germany', currency: 'EUR', calling_code: '49' },
  { alpha2: 'DK', alpha3: 'DNK', name: 'Denmark', currency: 'DKK', calling_code: '45' },
  { alpha2: 'ES', alpha3: 'ESP', name: 'Spain', currency: 'EUR', calling_code: '34' },
  { alpha2: 'FI', alpha3: 'FIN', name: 'Finland', currency: 'EUR', calling_code: '358' },
  { alpha2: 'FR', alpha3: 'FRA', name: 'France', currency: 'EUR', calling_code: '33' },
  {
    alpha2: 'GB',
    alpha3: 'GBR',
    name: 'United Kingdom of Great Britain and Northern Ireland',
    currency: 'GBP',
    calling_code: '44',
  },
  { alpha2: 'HK', alpha3: 'HKG', name: 'Hong Kong', currency: 'HKD', calling_code: '852' },
  { alpha2: 'HU', alpha3: 'HUN', name: 'Hungary', currency: 'HUF', calling_code: '36' },
  { alpha2: 'IE', alpha3: 'IRL', name: 'Ireland', currency: 'EUR', calling_code: '353' },
  { alpha2: 'IN', alpha3: 'IND', name: 'India', currency: 'INR', calling_code: '91' },
  { alpha2: 'IT', alpha3: 'ITA', name: 'Italy', currency: 'EUR', calling_code: '39' },
  { alpha2: 'JP', alpha3: 'JPN', name: 'Japan', currency: 'JPY', calling_code: '81' },
  { alpha2: 'KR', alpha3: 'KOR', name: 'Korea, Republic of', currency: 'KRW', calling_code: '82' },
  { alpha2: 'KW', alpha3: 'KWT', name: 'Kuwait', currency: 'KWD', calling_code: '965' },
  { alpha2: 'LU', alpha3: 'LUX', name: 'Luxembourg', currency: 'EUR', calling_code: '352' },
  { alpha2: 'MX', alpha3: 'MEX', name: 'Mexico', currency: 'MXN', calling_code: '52' },
  { alpha2: 'NL', alpha3: 'NLD', name: 'Netherlands, Kingdom of the', currency: 'EUR', calling_code: '31' },
  { alpha2: 'NO', alpha3: 'NOR', name: 'Norway', currency: 'NOK', calling_code: '47' },
  { alpha2: 'PL', alpha3: 'POL', name: 'Poland', currency: 'PLN', calling_code: '48' },
  { alpha2: 'PT', alpha3: 'PRT', name: 'Portugal', currency: 'EUR', calling_code: '351' },
  { alpha2: 'SA', alpha3: 'SAU', name: 'Saudi Arabia', currency: 'SAR', calling_code: '966' },
  { alpha2: 'SE', alpha3: 'SWE', name: 'Sweden', currency: 'SEK', calling_code: '46' },
  { alpha2: 'SG', alpha3: 'SGP', name: 'Singapore', currency: 'SGD', calling_code: '65' },
  { alpha2: 'TH', alpha3: 'THA', name: 'Thailand', currency: 'THB', calling_code: '66' },
  { alpha2: 'TR', alpha3: 'TUR', name: 'Türkiye', currency: 'TRY', calling_code: '90' },
  { alpha2: 'US', alpha3: 'USA', name: 'United States of America', currency: 'USD', calling_code: '1' },
  { alpha2: 'ZA', alpha3: 'ZAF', name: 'South Africa', currency: 'ZAR', calling_code: '27' },
];

export const countryByCode: ReadonlyMap<string, Country> = new Map(
  countries.map((country) => [country.alpha2, country]),
);
