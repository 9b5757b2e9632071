/**
 * The cards pack's tables of parameters: when cardholders pay (an hour-of-day x weekday profile in the merchant's
 * local time, with each country's standard UTC offset), and how much, per merchant category.
 */

/**
 * Relative card activity per local hour, 00:00 first: almost none from 01:00 to 05:00, a lunchtime peak and a
 * larger early-evening one, as card-present spend is spread over a day.
 */
export const HOUR_WEIGHTS: readonly number[] = [
  1.2, 0.6, 0.35, 0.25, 0.25, 0.45, 1.2, 2.6, 3.8, 4.2, 4.8, 5.6, 6.6, 6.2, 5.4, 5.2, 5.6, 6.4, 6.8, 6.0, 4.6, 3.4, 2.4,
  1.6,
];

/** Relative activity per weekday, Monday first: Friday and Saturday the busiest, Sunday the quietest. */
export const WEEKDAY_WEIGHTS: readonly number[] = [0.9, 0.92, 0.95, 1.0, 1.2, 1.25, 0.78];

/**
 * Standard-time UTC offset of each country the pack draws merchants in, in minutes. One fixed offset per country:
 * summer time (an hour in Europe) is left out, which shifts a summer day's activity by an hour at most.
 */
export const UTC_OFFSET_MINUTES: Readonly<Record<string, number>> = {
  GB: 0,
  IE: 0,
  PT: 0,
  DE: 60,
  FR: 60,
  ES: 60,
  IT: 60,
  NL: 60,
  BE: 60,
  ZA: 120,
  TR: 180,
  BR: -180,
  AE: 240,
  IN: 330,
  TH: 420,
  HK: 480,
  MX: -360,
};

/**
 * How a category's amounts are drawn, in euros: lognormal around a median (sigma: the log-scale spread);
 * `cash`: the same, then rounded to the banknotes of the transaction currency (an ATM withdrawal);
 * `price_points`: one of the listed prices (subscriptions and in-app purchases), in the transaction currency's
 * own figures for the euro and the pound, converted for others.
 */
export type AmountModel =
  | { kind: 'lognormal'; median: number; sigma: number }
  | { kind: 'cash'; median: number; sigma: number }
  | { kind: 'price_points'; points: readonly number[]; weights: readonly number[] };

const spend = (median: number, sigma: number): AmountModel => ({ kind: 'lognormal', median, sigma });

/** Amounts per ISO 18245 category; a category missing here draws DEFAULT_AMOUNT. */
export const AMOUNT_BY_MCC: Readonly<Record<string, AmountModel>> = {
  '5411': spend(32, 0.8), // groceries: a weekly shop and top-ups
  '5812': spend(38, 0.6), // restaurants
  '5814': spend(11, 0.45), // fast food: a meal, rarely more than a family's
  '5541': spend(55, 0.4), // fuel: a tank
  '5912': spend(18, 0.7),
  '5499': spend(14, 0.7),
  '4111': spend(6, 0.8), // fares and top-ups of travel cards
  '4121': spend(22, 0.5),
  '5813': spend(24, 0.7),
  '5311': spend(60, 0.9),
  '5651': spend(55, 0.8),
  '5691': spend(65, 0.8),
  '5732': spend(140, 1.0),
  '5942': spend(18, 0.6),
  '5200': spend(70, 1.0),
  '5999': spend(35, 0.9),
  '5310': spend(25, 0.8),
  '4511': spend(260, 0.7), // airline tickets
  '7011': spend(190, 0.6), // hotel stays
  '7512': spend(220, 0.6),
  '4722': spend(450, 0.8),
  '4900': spend(85, 0.5),
  '4814': spend(35, 0.5),
  '4899': { kind: 'price_points', points: [9.99, 14.99, 19.99, 29.99, 49.99], weights: [25, 30, 20, 15, 10] },
  '8011': spend(90, 0.6),
  '8062': spend(250, 1.0),
  '8220': spend(600, 1.0),
  '7230': spend(35, 0.5),
  '7832': spend(14, 0.4),
  '6300': spend(70, 0.8),
  '5815': {
    kind: 'price_points',
    points: [2.99, 4.99, 7.99, 9.99, 12.99, 14.99, 19.99],
    weights: [10, 20, 15, 25, 10, 15, 5],
  },
  '5816': {
    kind: 'price_points',
    points: [0.99, 1.99, 4.99, 9.99, 19.99, 49.99, 69.99],
    weights: [20, 15, 25, 20, 10, 6, 4],
  },
  '5944': spend(350, 1.0),
  '4829': spend(250, 1.0),
  '6051': spend(150, 0.9),
  '7995': spend(30, 1.0),
  '6011': { kind: 'cash', median: 80, sigma: 0.6 }, // ATM withdrawals
};

/** What a category without parameters of its own draws: the spread of everyday card spend as a whole. */
export const DEFAULT_AMOUNT: AmountModel = spend(25, 1.1);

/** The prices of `price_points` categories that read the same in these currencies (9.99 EUR, 9.99 GBP). */
export const PRICE_POINT_CURRENCIES: readonly string[] = ['EUR', 'GBP'];
