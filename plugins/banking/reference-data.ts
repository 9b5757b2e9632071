/**
 * What the banking pack draws from, kept apart from the code that draws: where customers live, how
 * amounts scale with the local currency, and the kinds of booking a current account sees.
 */

/** Customers' countries (all with an IBAN format the engine knows) and their share of the book. */
export const CUSTOMER_COUNTRIES = {
  GB: 24,
  DE: 18,
  FR: 14,
  ES: 10,
  IT: 9,
  NL: 7,
  BE: 4,
  IE: 3,
  AT: 3,
  PT: 3,
  PL: 3,
  FI: 1,
  NO: 1,
  CH: 1,
} as const;

/**
 * Roughly how many units of each local currency buy what one euro buys, so that a salary or a grocery
 * bill looks right in kroner or złoty. Amounts are drawn in euro terms, then scaled.
 */
export const PRICE_LEVEL: Readonly<Record<string, number>> = { EUR: 1, GBP: 0.86, CHF: 0.95, NOK: 11.5, PLN: 4.3 };

/** How much larger balances run in each customer segment than in retail, and on savings accounts. */
export const BALANCE_FACTOR: Readonly<Record<string, number>> = {
  retail: 1,
  premier: 4,
  private: 12,
  small_business: 3.3,
};
export const SAVINGS_BALANCE_FACTOR = 3.3;

/**
 * A kind of booking: its direction, how often it happens among a current account's everyday bookings,
 * and its amount in euro terms (log-normal: median e^mu). Salary is not drawn by weight: it arrives monthly.
 */
export interface BookingKind {
  type: string;
  direction: 'credit' | 'debit';
  weight: number;
  /** Its weight among a savings account's bookings (0: never on a savings account). */
  savings_weight: number;
  mu: number;
  sigma: number;
  /** Round the amount to this many major units (cash comes in notes). */
  round_to?: number;
  /** Who is on the other side: another bank account (its IBAN is shown), a merchant (a name only), or no one. */
  counterparty: 'account' | 'merchant' | 'none';
  descriptions: readonly string[];
}

export const SALARY: BookingKind = {
  type: 'salary',
  direction: 'credit',
  weight: 0,
  savings_weight: 0,
  mu: 7.8,
  sigma: 0.45,
  counterparty: 'account',
  descriptions: ['SALARY', 'PAYROLL', 'MONTHLY PAY'],
};

export const BOOKING_KINDS: readonly BookingKind[] = [
  {
    type: 'card_payment',
    direction: 'debit',
    weight: 560,
    savings_weight: 0,
    mu: 3.2,
    sigma: 0.95,
    counterparty: 'merchant',
    descriptions: ['CARD PAYMENT', 'POS PURCHASE', 'CONTACTLESS'],
  },
  {
    type: 'direct_debit',
    direction: 'debit',
    weight: 20,
    savings_weight: 0,
    mu: 4.2,
    sigma: 0.7,
    counterparty: 'account',
    descriptions: ['DIRECT DEBIT ENERGY', 'DIRECT DEBIT MOBILE', 'DIRECT DEBIT INSURANCE', 'DIRECT DEBIT BROADBAND'],
  },
  {
    type: 'standing_order',
    direction: 'debit',
    weight: 8,
    savings_weight: 0,
    mu: 6.4,
    sigma: 0.45,
    counterparty: 'account',
    descriptions: ['RENT', 'STANDING ORDER', 'SAVINGS TRANSFER'],
  },
  {
    type: 'transfer_out',
    direction: 'debit',
    weight: 70,
    savings_weight: 40,
    mu: 4.4,
    sigma: 1.1,
    counterparty: 'account',
    descriptions: ['TRANSFER', 'SEPA CREDIT TRANSFER', 'PAYMENT TO'],
  },
  {
    type: 'atm_withdrawal',
    direction: 'debit',
    weight: 60,
    savings_weight: 0,
    mu: 4.1,
    sigma: 0.6,
    round_to: 10,
    counterparty: 'none',
    descriptions: ['ATM WITHDRAWAL', 'CASH WITHDRAWAL'],
  },
  {
    type: 'transfer_in',
    direction: 'credit',
    weight: 90,
    savings_weight: 45,
    mu: 4.6,
    sigma: 1.0,
    counterparty: 'account',
    descriptions: ['TRANSFER FROM', 'SEPA CREDIT RECEIVED', 'REFUND'],
  },
  {
    type: 'fee',
    direction: 'debit',
    weight: 15,
    savings_weight: 0,
    mu: 1.4,
    sigma: 0.5,
    counterparty: 'none',
    descriptions: ['ACCOUNT FEE', 'CARD FEE', 'FOREIGN TRANSACTION FEE'],
  },
  {
    type: 'interest',
    direction: 'credit',
    weight: 10,
    savings_weight: 15,
    mu: 0.8,
    sigma: 0.9,
    counterparty: 'none',
    descriptions: ['CREDIT INTEREST'],
  },
];

/** Cash paid in at a branch: only structuring deposits (the everyday bookings draw none). */
export const CASH_DEPOSIT: BookingKind = {
  type: 'cash_deposit',
  direction: 'credit',
  weight: 0,
  savings_weight: 0,
  mu: 0,
  sigma: 0,
  counterparty: 'none',
  descriptions: ['CASH DEPOSIT', 'BRANCH CASH IN'],
};

export const TRANSACTION_TYPES = [SALARY, ...BOOKING_KINDS, CASH_DEPOSIT].map((kind) => kind.type);

/**
 * Laundering typologies (AMLSim, AMLworld) and structuring: how often each is planted, and its members (min to max).
 * Fan-out and fan-in: one account pays many or is paid by many; cycle: money goes round back to its start;
 * scatter-gather: a source to intermediaries to a sink; gather-scatter: many to a hub to many; bipartite: each of
 * one group pays each of another; stacked bipartite: three such layers; random: payments among the members;
 * structuring: one account paid cash just under the reporting threshold.
 */
export const AML_TYPOLOGIES = {
  fan_out: { weight: 12, min: 4, max: 6 },
  fan_in: { weight: 12, min: 4, max: 6 },
  cycle: { weight: 12, min: 3, max: 6 },
  scatter_gather: { weight: 12, min: 4, max: 6 },
  gather_scatter: { weight: 10, min: 5, max: 7 },
  bipartite: { weight: 8, min: 4, max: 6 },
  stacked_bipartite: { weight: 6, min: 6, max: 6 },
  random: { weight: 8, min: 4, max: 6 },
  structuring: { weight: 20, min: 1, max: 1 },
} as const;
export type Typology = keyof typeof AML_TYPOLOGIES;

/**
 * How motifs are planted: each takes a block of `block` accounts (members are the first with `min_rows` rows or
 * more: room for any member's legs and a top-up before each), within the `window_days` before the as-of date; the
 * money entering a motif is log-normal in euro terms; structuring pays `deposits` cash deposits each a fraction
 * `below` of the reporting threshold (10,000 EUR).
 */
export const AML = {
  block: 16,
  min_rows: 16,
  window_days: 60,
  mu: 9,
  sigma: 0.6,
  threshold: 10_000,
  deposits: [5, 9],
  below: [0.9, 0.999],
  total_weight: Object.values(AML_TYPOLOGIES).reduce((sum, spec) => sum + spec.weight, 0),
} as const;

/**
 * The day of the month an employer pays on, by weight (the day is the employer's, so all its staff are paid
 * together): the 25th, the month's last day, the 15th or the 1st, moved to the business day before a weekend.
 */
export const PAY_DAYS: readonly { day: number | 'last'; weight: number }[] = [
  { day: 25, weight: 45 },
  { day: 'last', weight: 35 },
  { day: 15, weight: 12 },
  { day: 1, weight: 8 },
];

/** The share of salaries raised within the period, and by how much (a fraction of the salary, uniform). */
export const PAY_RAISE = { share: 0.25, min: 0.02, max: 0.05 } as const;

/**
 * A bill a current account pays every month to the same payee, on the same day, for the same amount: how many
 * accounts have it, the days of the month it falls on (uniform), and its amount in euro terms (log-normal,
 * drawn once per account). A bill due on a weekend is collected on the next business day.
 */
export interface Bill {
  name: string;
  type: 'direct_debit' | 'standing_order' | 'card_payment';
  share: number;
  /** A bill an account pays only when it does not pay this other one (rent or a mortgage). */
  instead_of?: string;
  days: readonly [number, number];
  mu: number;
  sigma: number;
  description: string;
}

export const BILLS: readonly Bill[] = [
  { name: 'rent', type: 'standing_order', share: 0.45, days: [1, 3], mu: 6.7, sigma: 0.35, description: 'RENT' },
  {
    name: 'mortgage',
    type: 'direct_debit',
    share: 0.45,
    instead_of: 'rent',
    days: [1, 5],
    mu: 6.9,
    sigma: 0.4,
    description: 'DIRECT DEBIT MORTGAGE',
  },
  {
    name: 'energy',
    type: 'direct_debit',
    share: 0.85,
    days: [5, 28],
    mu: 4.5,
    sigma: 0.4,
    description: 'DIRECT DEBIT ENERGY',
  },
  {
    name: 'telecom',
    type: 'direct_debit',
    share: 0.9,
    days: [10, 25],
    mu: 3.4,
    sigma: 0.35,
    description: 'DIRECT DEBIT MOBILE',
  },
  {
    name: 'broadband',
    type: 'direct_debit',
    share: 0.6,
    days: [1, 28],
    mu: 3.5,
    sigma: 0.25,
    description: 'DIRECT DEBIT BROADBAND',
  },
  {
    name: 'insurance',
    type: 'direct_debit',
    share: 0.5,
    days: [1, 28],
    mu: 3.7,
    sigma: 0.5,
    description: 'DIRECT DEBIT INSURANCE',
  },
  {
    name: 'subscription',
    type: 'card_payment',
    share: 0.7,
    days: [1, 28],
    mu: 2.4,
    sigma: 0.3,
    description: 'SUBSCRIPTION',
  },
];

/**
 * Transfers between two accounts of the dataset: their amount in euro terms (log-normal, whole units) and the
 * share of an account's rows that may be internal legs at most (every leg must fit in the account's rows).
 */
export const INTERNAL_TRANSFER = {
  mu: 5.2,
  sigma: 0.9,
  descriptions: ['OWN ACCOUNT TRANSFER', 'TRANSFER', 'SEPA CREDIT TRANSFER'],
  max_share_of_rows: 0.25,
} as const;
