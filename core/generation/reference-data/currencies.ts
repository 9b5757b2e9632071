/**
 * ISO 4217 currencies with their minor units as the standard lists them (List One, maintained by SIX).
 * Taken from ISO data rather than `Intl.NumberFormat`, whose CLDR digits differ for some codes
 * (ISO gives HUF, IDR and COP two minor units where CLDR formats them with none).
 */
export interface Currency {
  code: string;
  numeric: string;
  name: string;
  minor_units: number;
}

export const currencies: readonly Currency[] = [
  { code: 'AED', numeric: '784', name: 'UAE Dirham', minor_units: 2 },
  { code: 'ARS', numeric: '032', name: 'Argentine Peso', minor_units: 2 },
  { code: 'AUD', numeric: '036', name: 'Australian Dollar', minor_units: 2 },
  { code: 'BHD', numeric: '048', name: 'Bahraini Dinar', minor_units: 3 },
  { code: 'BRL', numeric: '986', name: 'Brazilian Real', minor_units: 2 },
  { code: 'CAD', numeric: '124', name: 'Canadian Dollar', minor_units: 2 },
  { code: 'CHF', numeric: '756', name: 'Swiss Franc', minor_units: 2 },
  { code: 'CLF', numeric: '990', name: 'Unidad de Fomento', minor_units: 4 },
  { code: 'CLP', numeric: '152', name: 'Chilean Peso', minor_units: 0 },
  { code: 'CNY', numeric: '156', name: 'Yuan Renminbi', minor_units: 2 },
  { code: 'COP', numeric: '170', name: 'Colombian Peso', minor_units: 2 },
  { code: 'CZK', numeric: '203', name: 'Czech Koruna', minor_units: 2 },
  { code: 'DKK', numeric: '208', name: 'Danish Krone', minor_units: 2 },
  { code: 'EUR', numeric: '978', name: 'Euro', minor_units: 2 },
  { code: 'GBP', numeric: '826', name: 'Pound Sterling', minor_units: 2 },
  { code: 'HKD', numeric: '344', name: 'Hong Kong Dollar', minor_units: 2 },
  { code: 'HUF', numeric: '348', name: 'Forint', minor_units: 2 },
  { code: 'IDR', numeric: '360', name: 'Rupiah', minor_units: 2 },
  { code: 'ILS', numeric: '376', name: 'New Israeli Sheqel', minor_units: 2 },
  { code: 'INR', numeric: '356', name: 'Indian Rupee', minor_units: 2 },
  { code: 'IQD', numeric: '368', name: 'Iraqi Dinar', minor_units: 3 },
  { code: 'ISK', numeric: '352', name: 'Iceland Krona', minor_units: 0 },
  { code: 'JOD', numeric: '400', name: 'Jordanian Dinar', minor_units: 3 },
  { code: 'JPY', numeric: '392', name: 'Yen', minor_units: 0 },
  { code: 'KRW', numeric: '410', name: 'Won', minor_units: 0 },
  { code: 'KWD', numeric: '414', name: 'Kuwaiti Dinar', minor_units: 3 },
  { code: 'LYD', numeric: '434', name: 'Libyan Dinar', minor_units: 3 },
  { code: 'MXN', numeric: '484', name: 'Mexican Peso', minor_units: 2 },
  { code: 'NOK', numeric: '578', name: 'Norwegian Krone', minor_units: 2 },
  { code: 'NZD', numeric: '554', name: 'New Zealand Dollar', minor_units: 2 },
  { code: 'OMR', numeric: '512', name: 'Rial Omani', minor_units: 3 },
  { code: 'PLN', numeric: '985', name: 'Zloty', minor_units: 2 },
  { code: 'PYG', numeric: '600', name: 'Guarani', minor_units: 0 },
  { code: 'RON', numeric: '946', name: 'Romanian Leu', minor_units: 2 },
  { code: 'SAR', numeric: '682', name: 'Saudi Riyal', minor_units: 2 },
  { code: 'SEK', numeric: '752', name: 'Swedish Krona', minor_units: 2 },
  { code: 'SGD', numeric: '702', name: 'Singapore Dollar', minor_units: 2 },
  { code: 'THB', numeric: '764', name: 'Baht', minor_units: 2 },
  { code: 'TND', numeric: '788', name: 'Tunisian Dinar', minor_units: 3 },
  { code: 'TRY', numeric: '949', name: 'Turkish Lira', minor_units: 2 },
  { code: 'UGX', numeric: '800', name: 'Uganda Shilling', minor_units: 0 },
  { code: 'USD', numeric: '840', name: 'US Dollar', minor_units: 2 },
  { code: 'UYW', numeric: '927', name: 'Unidad Previsional', minor_units: 4 },
  { code: 'VND', numeric: '704', name: 'Dong', minor_units: 0 },
  { code: 'XAF', numeric: '950', name: 'CFA Franc BEAC', minor_units: 0 },
  { code: 'XOF', numeric: '952', name: 'CFA Franc BCEAO', minor_units: 0 },
  { code: 'ZAR', numeric: '710', name: 'Rand', minor_units: 2 },
];

export const currencyByCode: ReadonlyMap<string, Currency> = new Map(
  currencies.map((currency) => [currency.code, currency]),
);
