/**
 * What the markets pack draws from, apart from the code that draws: exchanges (ISO 10383 MICs) with
 * their country, trading currency and regular session in UTC (standard time; daylight saving ignored),
 * GICS sectors, and exchange-traded funds' providers and exposures.
 */
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
