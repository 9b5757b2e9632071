import { defineInvariant, definePack } from '../../../../core/packs/sdk.js';

/**
 * A pack that breaks every kind of rule the conformance report checks, each in every tenth row (row 3, 13, …),
 * so that a test can find each one named with its first row: invalid financial values, an orphan reference,
 * an amount in no ISO 4217 currency, a broken invariant (and one that throws), and configured shares and
 * distributions its generator ignores.
 */
export default definePack({
  name: 'rulebreaking',
  version: '1.0.0',
  description: 'Breaks each rule of the conformance report on purpose (report tests).',
  tables: {
    owners: {
      description: 'What entries point at.',
      default_rows: 50,
      credits_per_1000_rows: 1,
      columns: { owner_id: { type: 'id', prefix: 'own', description: 'Key of the owner.' } },
    },
    entries: {
      description: 'Rows that each break one rule in ten.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      options: {
        flag_rate: {
          description: 'Share of flagged entries the generator is asked for (and ignores).',
          schema: { type: 'number', minimum: 0, maximum: 1 },
          default: 0.4,
        },
      },
      rate_targets: [{ option: 'flag_rate', column: 'flagged', value: 'true' }],
      invariants: [
        defineInvariant({
          name: 'steps-of-one',
          description: "An entry's step is the one before plus one.",
          holds: (row, previous) => previous === undefined || row.step === Number(previous.step) + 1,
        }),
        defineInvariant({
          name: 'never-throws',
          description: 'An invariant whose check throws on the rows it cannot read.',
          holds: (row) => {
            if (row.step === -1) throw new Error('step -1 is unreadable');
            return true;
          },
        }),
      ],
      per_parent: 'owners',
      columns: {
        entry_id: { type: 'id', prefix: 'ent', description: 'Key of the entry.' },
        owner_id: { type: 'reference', table: 'owners', description: 'The owner (its run).' },
        other_owner: { type: 'reference', table: 'owners', description: 'Another owner, by a key written here.' },
        iban: { type: 'iban', description: 'An IBAN.' },
        bic: { type: 'bic', description: 'A BIC.' },
        pan: { type: 'pan', description: 'A card number failing Luhn.' },
        pan_range: { type: 'pan', description: 'A card number of no network.' },
        isin: { type: 'isin', description: 'An ISIN.' },
        currency: { type: 'currency', description: 'A currency.' },
        mcc: { type: 'mcc', description: 'A merchant category.' },
        amount: {
          type: 'money',
          currency_column: 'currency',
          distribution: 'lognormal',
          mu: 3,
          sigma: 1,
          description: 'An amount.',
        },
        kind: { type: 'enum', values: ['a', 'b'], description: 'A kind.' },
        flagged: { type: 'boolean', description: 'Flagged.' },
        step: { type: 'integer', min: 0, max: 1_000_000, description: 'A step.' },
      },
      start: () => ({ step: 0 }),
      row: (ctx, state: { step: number }) => {
        const broken = ctx.index % 10 === 3;
        state.step += broken ? 2 : 1;
        return {
          other_owner: broken ? 'own_00000000deadbeef' : ctx.key('owners', 0),
          iban: broken ? 'GB00WEST12345698765432' : 'GB82WEST12345698765432',
          bic: broken ? 'west1234' : 'NWBKGB2L',
          pan: broken ? '4111111111111112' : '4111111111111111',
          pan_range: broken ? '9111111111111110' : '5555555555554444',
          isin: broken ? 'US0378331006' : 'US0378331005',
          currency: broken ? 'XQQ' : 'EUR',
          mcc: broken ? '0000' : '5411',
          amount: 10,
          kind: 'a',
          flagged: false,
          step: ctx.index === 3 ? -1 : state.step,
        };
      },
    },
  },
});
