import type { PackCatalog, PackTable } from '../../core/configs/pack-catalog.js';

/** A small cards pack, so that config rules are tested apart from the engine's real packs. */
const cards: PackTable[] = [
  {
    name: 'accounts',
    weight: 1,
    columns: [
      { name: 'account_id', type: 'id', numeric: false },
      { name: 'country', type: 'country', numeric: false },
    ],
    references: [],
    optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  },
  {
    name: 'transactions',
    weight: 2,
    columns: [
      { name: 'transaction_id', type: 'id', numeric: false },
      { name: 'account_id', type: 'reference', numeric: false },
      { name: 'amount', type: 'money', numeric: true },
      { name: 'channel', type: 'enum', numeric: false, values: ['pos', 'ecommerce', 'atm'] },
    ],
    references: ['accounts'],
    optionsSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { fraud_rate: { type: 'number', minimum: 0, maximum: 1 } },
    },
  },
];

export const fixtureCatalog: PackCatalog = {
  sectorNames: () => ['cards'],
  tables: (sector) => (sector === 'cards' ? cards : undefined),
};
