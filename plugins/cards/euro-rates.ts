/**
 * Approximate units of each transaction currency per euro (2025 averages). Amounts are drawn in euros
 * and converted, so a coffee costs about as much in Bangkok as in Berlin rather than 3 baht.
 */
export const UNITS_PER_EURO: Readonly<Record<string, number>> = {
  EUR: 1,
  GBP: 0.85,
  BRL: 6.2,
  MXN: 21,
  THB: 38,
  AED: 4.1,
  TRY: 42,
  HKD: 8.8,
  INR: 97,
  ZAR: 20.5,
};
