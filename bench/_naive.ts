import { faker } from '@faker-js/faker';

/**
 * The naive baseline the engine is measured against: the cards transactions' columns filled by one
 * @faker-js/faker call per cell, serialised with JSON.stringify, on one thread.
 */
export function naiveTransaction(): Record<string, unknown> {
  const authorized = faker.date.between({ from: '2025-01-01T00:00:00Z', to: '2025-03-31T23:59:59Z' });
  return {
    transaction_id: `txn_${faker.string.hexadecimal({ length: 16, casing: 'lower', prefix: '' })}`,
    card_id: `card_${faker.string.hexadecimal({ length: 16, casing: 'lower', prefix: '' })}`,
    merchant_id: `mer_${faker.string.hexadecimal({ length: 16, casing: 'lower', prefix: '' })}`,
    mcc: faker.helpers.arrayElement(['5411', '5812', '5814', '5541', '5912', '4111', '5311', '5815', '7011', '4511']),
    merchant_country: faker.location.countryCode('alpha-2'),
    amount: Number(faker.finance.amount({ min: 0.5, max: 500, dec: 2 })),
    currency: faker.finance.currencyCode(),
    entry_mode: faker.helpers.arrayElement(['chip', 'contactless', 'online', 'magstripe']),
    authorized_at: authorized.toISOString(),
    status: faker.helpers.weightedArrayElement([
      { weight: 955, value: 'approved' },
      { weight: 35, value: 'declined' },
      { weight: 10, value: 'reversed' },
    ]),
    auth_code: faker.string.alphanumeric({ length: 6, casing: 'upper' }),
    settled_at: faker.date.soon({ days: 3, refDate: authorized }).toISOString(),
    is_fraud: faker.datatype.boolean({ probability: 0.002 }),
    fraud_pattern:
      faker.helpers.maybe(() => faker.helpers.arrayElement(['card_testing', 'foreign_country']), {
        probability: 0.002,
      }) ?? null,
  };
}

/** Rows per second of the naive baseline over `rows` rows, writing NDJSON into memory. */
export function naiveRowsPerSecond(rows: number): number {
  faker.seed(42);
  const encoder = new TextEncoder();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < rows; i++) bytes += encoder.encode(`${JSON.stringify(naiveTransaction())}\n`).length;
  const seconds = (performance.now() - started) / 1000;
  return bytes > 0 ? rows / seconds : 0;
}
