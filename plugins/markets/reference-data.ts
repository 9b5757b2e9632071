import type { GarchParameters, HolidayRule } from '../../core/packs/sdk.js';

/**
 * What the markets pack draws from, apart from the code that draws: exchanges (ISO 10383 MICs) with
 * their country, trading currency, regular session in UTC (standard time; daylight saving ignored) and
 * public holidays as rules, GICS sectors, exchange-traded funds' providers and exposures, and the
 * parameters of the return model.
 */

const NEW_YEAR: HolidayRule = { name: "New Year's Day", kind: 'fixed', month: 1, day: 1 };
const GOOD_FRIDAY: HolidayRule = { name: 'Good Friday', kind: 'easter', offset: -2 };
const EASTER_MONDAY: HolidayRule = { name: 'Easter Monday', kind: 'easter', offset: 1 };
const LABOUR_DAY: HolidayRule = { name: 'Labour Day', kind: 'fixed', month: 5, day: 1 };
const CHRISTMAS_EVE: HolidayRule = { name: 'Christmas Eve', kind: 'fixed', month: 12, day: 24 };
const CHRISTMAS: HolidayRule = { name: 'Christmas Day', kind: 'fixed', month: 12, day: 25 };
const BOXING_DAY: HolidayRule = { name: "St Stephen's Day", kind: 'fixed', month: 12, day: 26 };
const NEW_YEARS_EVE: HolidayRule = { name: "New Year's Eve", kind: 'fixed', month: 12, day: 31 };

/** NYSE and Nasdaq: the federal holidays they close on, and Good Friday; Saturday's New Year is not made up. */
const US_HOLIDAYS: readonly HolidayRule[] = [
  { ...NEW_YEAR, observance: 'sunday-to-monday' },
  { name: 'Martin Luther King Jr. Day', kind: 'nth-weekday', month: 1, weekday: 1, nth: 3, from_year: 1998 },
  { name: "Washington's Birthday", kind: 'nth-weekday', month: 2, weekday: 1, nth: 3 },
  GOOD_FRIDAY,
  { name: 'Memorial Day', kind: 'nth-weekday', month: 5, weekday: 1, nth: -1 },
  { name: 'Juneteenth', kind: 'fixed', month: 6, day: 19, observance: 'nearest', from_year: 2022 },
  { name: 'Independence Day', kind: 'fixed', month: 7, day: 4, observance: 'nearest' },
  { name: 'Labor Day', kind: 'nth-weekday', month: 9, weekday: 1, nth: 1 },
  { name: 'Thanksgiving Day', kind: 'nth-weekday', month: 11, weekday: 4, nth: 4 },
  { ...CHRISTMAS, observance: 'nearest' },
];

/** England's bank holidays; one on a weekend moves to the next free weekday. */
const UK_HOLIDAYS: readonly HolidayRule[] = [
  { ...NEW_YEAR, observance: 'next-free-weekday' },
  GOOD_FRIDAY,
  EASTER_MONDAY,
  { name: 'Early May bank holiday', kind: 'nth-weekday', month: 5, weekday: 1, nth: 1 },
  { name: 'Spring bank holiday', kind: 'nth-weekday', month: 5, weekday: 1, nth: -1 },
  { name: 'Summer bank holiday', kind: 'nth-weekday', month: 8, weekday: 1, nth: -1 },
  { ...CHRISTMAS, observance: 'next-free-weekday' },
  { ...BOXING_DAY, name: 'Boxing Day', observance: 'next-free-weekday' },
];

/** Euronext's closing days, the same on every Euronext market. */
const EURONEXT_HOLIDAYS: readonly HolidayRule[] = [
  NEW_YEAR,
  GOOD_FRIDAY,
  EASTER_MONDAY,
  LABOUR_DAY,
  CHRISTMAS,
  BOXING_DAY,
];

const XETRA_HOLIDAYS: readonly HolidayRule[] = [...EURONEXT_HOLIDAYS, CHRISTMAS_EVE, NEW_YEARS_EVE];

const SIX_HOLIDAYS: readonly HolidayRule[] = [
  NEW_YEAR,
  { name: "Berchtold's Day", kind: 'fixed', month: 1, day: 2 },
  GOOD_FRIDAY,
  EASTER_MONDAY,
  LABOUR_DAY,
  { name: 'Ascension Day', kind: 'easter', offset: 39 },
  { name: 'Whit Monday', kind: 'easter', offset: 50 },
  { name: 'Swiss National Day', kind: 'fixed', month: 8, day: 1 },
  CHRISTMAS_EVE,
  CHRISTMAS,
  BOXING_DAY,
  NEW_YEARS_EVE,
];

/**
 * Tokyo: the exchange's year-end closure and Japan's national holidays, a Sunday one made up on the next free
 * weekday (the Happy Monday days since their moves; the Emperor's Birthday with the reigning emperor's).
 */
const JP_HOLIDAYS: readonly HolidayRule[] = [
  NEW_YEAR,
  { name: 'Bank holiday', kind: 'fixed', month: 1, day: 2 },
  { name: 'Bank holiday', kind: 'fixed', month: 1, day: 3 },
  { name: 'Coming of Age Day', kind: 'nth-weekday', month: 1, weekday: 1, nth: 2, from_year: 2000 },
  { name: 'National Foundation Day', kind: 'fixed', month: 2, day: 11, observance: 'sunday-to-next-free' },
  { name: "Emperor's Birthday", kind: 'fixed', month: 2, day: 23, observance: 'sunday-to-next-free', from_year: 2020 },
  { name: 'Vernal Equinox Day', kind: 'equinox', month: 3, observance: 'sunday-to-next-free' },
  { name: 'Showa Day', kind: 'fixed', month: 4, day: 29, observance: 'sunday-to-next-free' },
  { name: 'Constitution Memorial Day', kind: 'fixed', month: 5, day: 3 },
  { name: 'Greenery Day', kind: 'fixed', month: 5, day: 4 },
  { name: "Children's Day", kind: 'fixed', month: 5, day: 5 },
  // Golden Week's substitute comes after all three days, so it is decided once they are taken.
  { name: 'Golden Week substitute', kind: 'fixed', month: 5, day: 3, observance: 'sunday-to-next-free' },
  { name: 'Golden Week substitute', kind: 'fixed', month: 5, day: 4, observance: 'sunday-to-next-free' },
  { name: 'Golden Week substitute', kind: 'fixed', month: 5, day: 5, observance: 'sunday-to-next-free' },
  { name: 'Marine Day', kind: 'nth-weekday', month: 7, weekday: 1, nth: 3, from_year: 2003 },
  { name: 'Mountain Day', kind: 'fixed', month: 8, day: 11, observance: 'sunday-to-next-free', from_year: 2016 },
  { name: 'Respect for the Aged Day', kind: 'nth-weekday', month: 9, weekday: 1, nth: 3, from_year: 2003 },
  { name: 'Autumnal Equinox Day', kind: 'equinox', month: 9, observance: 'sunday-to-next-free' },
  { name: 'Sports Day', kind: 'nth-weekday', month: 10, weekday: 1, nth: 2, from_year: 2000 },
  { name: 'Culture Day', kind: 'fixed', month: 11, day: 3, observance: 'sunday-to-next-free' },
  { name: 'Labour Thanksgiving Day', kind: 'fixed', month: 11, day: 23, observance: 'sunday-to-next-free' },
  { name: "Emperor's Birthday", kind: 'fixed', month: 12, day: 23, observance: 'sunday-to-next-free', to_year: 2018 },
  { name: 'Year-end closure', kind: 'fixed', month: 12, day: 31 },
];

/**
 * Hong Kong's general holidays that follow the Gregorian calendar and Easter, Ching Ming and the Lunar New Year's
 * three days; a Sunday one is made up on the next free weekday. The other lunar-calendar holidays (Buddha's
 * Birthday, Tuen Ng, Mid-Autumn, Chung Yeung) are not modelled.
 */
const HK_HOLIDAYS: readonly HolidayRule[] = [
  { ...NEW_YEAR, observance: 'sunday-to-next-free' },
  { name: "Lunar New Year's Day", kind: 'lunar-new-year', offset: 0 },
  { name: 'The second day of Lunar New Year', kind: 'lunar-new-year', offset: 1 },
  { name: 'The third day of Lunar New Year', kind: 'lunar-new-year', offset: 2 },
  // The substitute for a Sunday among the three days comes after all three, so it is decided once they are taken.
  { name: 'Lunar New Year substitute', kind: 'lunar-new-year', offset: 0, observance: 'sunday-to-next-free' },
  { name: 'Lunar New Year substitute', kind: 'lunar-new-year', offset: 1, observance: 'sunday-to-next-free' },
  { name: 'Lunar New Year substitute', kind: 'lunar-new-year', offset: 2, observance: 'sunday-to-next-free' },
  { name: 'Ching Ming Festival', kind: 'qingming', observance: 'sunday-to-next-free' },
  GOOD_FRIDAY,
  EASTER_MONDAY,
  { ...LABOUR_DAY, observance: 'sunday-to-next-free' },
  { name: 'HKSAR Establishment Day', kind: 'fixed', month: 7, day: 1, observance: 'sunday-to-next-free' },
  { name: 'National Day', kind: 'fixed', month: 10, day: 1, observance: 'sunday-to-next-free' },
  { ...CHRISTMAS, observance: 'sunday-to-next-free' },
  { name: 'The first weekday after Christmas Day', kind: 'fixed', month: 12, day: 26, observance: 'next-free-weekday' },
];

export interface Exchange {
  mic: string;
  name: string;
  country: string;
  currency: string;
  weight: number;
  /** Regular session, minutes after midnight UTC. */
  opens: number;
  closes: number;
  /** How tickers look there: letters (NYSE, LSE) or digits (Tokyo, Hong Kong). */
  ticker: 'letters' | 'digits';
  /** Public holidays the exchange closes on, besides weekends. */
  holidays: readonly HolidayRule[];
}

export const EXCHANGES: readonly Exchange[] = [
  {
    mic: 'XNYS',
    name: 'New York Stock Exchange',
    country: 'US',
    currency: 'USD',
    weight: 24,
    opens: 870,
    closes: 1260,
    ticker: 'letters',
    holidays: US_HOLIDAYS,
  },
  {
    mic: 'XNAS',
    name: 'Nasdaq Stock Market',
    country: 'US',
    currency: 'USD',
    weight: 22,
    opens: 870,
    closes: 1260,
    ticker: 'letters',
    holidays: US_HOLIDAYS,
  },
  {
    mic: 'XLON',
    name: 'London Stock Exchange',
    country: 'GB',
    currency: 'GBP',
    weight: 12,
    opens: 480,
    closes: 990,
    ticker: 'letters',
    holidays: UK_HOLIDAYS,
  },
  {
    mic: 'XETR',
    name: 'Xetra (Deutsche Börse)',
    country: 'DE',
    currency: 'EUR',
    weight: 10,
    opens: 480,
    closes: 990,
    ticker: 'letters',
    holidays: XETRA_HOLIDAYS,
  },
  {
    mic: 'XPAR',
    name: 'Euronext Paris',
    country: 'FR',
    currency: 'EUR',
    weight: 8,
    opens: 480,
    closes: 990,
    ticker: 'letters',
    holidays: EURONEXT_HOLIDAYS,
  },
  {
    mic: 'XAMS',
    name: 'Euronext Amsterdam',
    country: 'NL',
    currency: 'EUR',
    weight: 5,
    opens: 480,
    closes: 990,
    ticker: 'letters',
    holidays: EURONEXT_HOLIDAYS,
  },
  {
    mic: 'XSWX',
    name: 'SIX Swiss Exchange',
    country: 'CH',
    currency: 'CHF',
    weight: 5,
    opens: 480,
    closes: 990,
    ticker: 'letters',
    holidays: SIX_HOLIDAYS,
  },
  {
    mic: 'XTKS',
    name: 'Tokyo Stock Exchange',
    country: 'JP',
    currency: 'JPY',
    weight: 9,
    opens: 0,
    closes: 360,
    ticker: 'digits',
    holidays: JP_HOLIDAYS,
  },
  {
    mic: 'XHKG',
    name: 'Hong Kong Stock Exchange',
    country: 'HK',
    currency: 'HKD',
    weight: 5,
    opens: 90,
    closes: 480,
    ticker: 'digits',
    holidays: HK_HOLIDAYS,
  },
];

export const GICS_SECTORS = [
  'Energy',
  'Materials',
  'Industrials',
  'Consumer Discretionary',
  'Consumer Staples',
  'Health Care',
  'Financials',
  'Information Technology',
  'Communication Services',
  'Utilities',
  'Real Estate',
] as const;

export const ETF_PROVIDERS = ['iShares', 'Vanguard', 'Xtrackers', 'Amundi', 'SPDR', 'Invesco'] as const;
export const ETF_EXPOSURES = [
  'MSCI World',
  'S&P 500',
  'Euro Stoxx 50',
  'FTSE 100',
  'MSCI Emerging Markets',
  'Nasdaq 100',
  'Global Aggregate Bond',
  'MSCI Japan',
] as const;
/** UCITS funds are mostly domiciled in Ireland or Luxembourg, whatever exchange lists them. */
export const ETF_DOMICILES = ['IE', 'LU'] as const;

/** Units of each currency that buy what one US dollar buys: share prices are drawn in dollar terms. */
export const PRICE_LEVEL: Readonly<Record<string, number>> = {
  USD: 1,
  GBP: 0.79,
  EUR: 0.92,
  CHF: 0.88,
  JPY: 150,
  HKD: 7.8,
};

/**
 * The return model: every instrument loads on one market factor and, for a share, its sector's factor, each a
 * GARCH(1,1) path with Student-t shocks, plus an idiosyncratic GARCH(1,1) part. Volatilities are annual; the
 * factor loadings explain at most MAX_FACTOR_SHARE of an instrument's variance, so every instrument keeps its own
 * noise. These make daily returns fat-tailed (excess kurtosis well above 1), clustered in volatility, and
 * correlated about 0.3 across instruments, more within a sector.
 */
export const MARKET_VOLATILITY = 0.135;
export const SECTOR_VOLATILITY = 0.12;
export const MAX_FACTOR_SHARE = 0.85;
/** Spread of the sector loadings (uniform around 1): a share's beta is the instruments column `market_beta`. */
export const SECTOR_LOADING_SPREAD = 0.4;
export const FACTOR_GARCH: Omit<GarchParameters, 'variance'> = { alpha: 0.09, beta: 0.89, nu: 6 };
export const IDIOSYNCRATIC_GARCH: Omit<GarchParameters, 'variance'> = { alpha: 0.1, beta: 0.87, nu: 6 };
/** Unseen days before each block of a path, so that it starts from a typical conditional variance. */
export const BURN_IN_DAYS = 60;
/** How much a day's move (in units of the instrument's daily volatility) raises its volume, in log terms. */
export const VOLUME_PER_MOVE = 0.4;
