/**
 * How card fraud shows up in transaction data, as the patterns fraud teams label. Each episode is a
 * burst of consecutive fraudulent transactions on one card, minutes apart.
 * - card_testing: several tiny purchases at digital-goods merchants to check the stolen card works;
 * - foreign_country: spending abroad, far from the cardholder's country, at several times the usual amount;
 * - unusual_category: high-value purchases in categories the cardholder never uses (jewellery, wires);
 * - odd_hours: purchases in the middle of the night.
 */
export interface FraudPattern {
  name: 'card_testing' | 'foreign_country' | 'unusual_category' | 'odd_hours';
  weight: number;
  /** Transactions in one episode: [fewest, most]. */
  burst: readonly [number, number];
  /** Multiplier of the card's usual amount: [low, high]. */
  amount_factor: readonly [number, number];
  /** Minutes between consecutive transactions of the episode: [least, most]. */
  gap_minutes: readonly [number, number];
  /** Probability that the issuer declines one of the episode's transactions. */
  decline_rate: number;
}

export const fraudPatterns: readonly FraudPattern[] = [
  {
    name: 'card_testing',
    weight: 30,
    burst: [3, 6],
    amount_factor: [0.02, 0.08],
    gap_minutes: [1, 4],
    decline_rate: 0.35,
  },
  {
    name: 'foreign_country',
    weight: 30,
    burst: [1, 4],
    amount_factor: [3, 10],
    gap_minutes: [5, 45],
    decline_rate: 0.25,
  },
  {
    name: 'unusual_category',
    weight: 25,
    burst: [1, 3],
    amount_factor: [4, 15],
    gap_minutes: [10, 90],
    decline_rate: 0.3,
  },
  { name: 'odd_hours', weight: 15, burst: [2, 4], amount_factor: [1.5, 5], gap_minutes: [3, 20], decline_rate: 0.2 },
];

/** Mean episode length, used to turn the configured fraud rate (a share of rows) into an episode start rate. */
export const meanBurst =
  fraudPatterns.reduce((sum, p) => sum + (p.weight * (p.burst[0] + p.burst[1])) / 2, 0) /
  fraudPatterns.reduce((sum, p) => sum + p.weight, 0);

/**
 * The episodes a card's history may be in the middle of, as (pattern, length) with the weight of meeting
 * one mid-way: an episode is met past its first row in proportion to its rows after the first.
 */
export const episodesUnderWay = fraudPatterns.flatMap((pattern) => {
  const [fewest, most] = pattern.burst;
  return Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i)
    .filter((length) => length > 1)
    .map((length) => ({ pattern, length, weight: (pattern.weight / (most - fewest + 1)) * (length - 1) }));
});

/** Countries whose cardholders and merchants the pack draws, with weights; and where fraud abroad happens. */
export const HOME_COUNTRIES = { GB: 30, DE: 18, FR: 16, ES: 10, IT: 9, NL: 7, IE: 4, BE: 3, PT: 3 } as const;
export const FRAUD_ABROAD = ['BR', 'MX', 'TH', 'AE', 'TR', 'HK', 'IN', 'ZA'] as const;
