/**
 * An example third-party sector pack: a retail loyalty programme. It lives outside plugins/ and is
 * loaded the way an operator installs one (FINSYNTH_PACKS=docs/examples/loyalty). It shows a flat table,
 * a per-parent table with a running balance kept in state, an option, and a draw through `ctx.draw` so
 * that users' overrides apply. test/packs/example-pack.test.ts runs the pack test kit on it.
 */
import { definePack, type RowContext } from '../../../core/packs/sdk.js';

interface MovementOptions {
  expiry_rate: number;
}

/** A member's points balance, carried from one movement to the next. */
interface Balance {
  points: number;
  clock: number;
}

const DAY = 86_400_000;

export default definePack({
  name: 'loyalty',
  version: '1.0.0',
  description: 'A retail loyalty programme: members and their point movements with running balances.',
  tables: {
    members: {
      description: 'Members of the programme.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: {
        member_id: { type: 'id', prefix: 'mem', description: 'Key of the member.' },
        name: { type: 'person_name', description: 'Full name.' },
        email: { type: 'email', name_column: 'name', description: 'E-mail address.' },
        tier: { type: 'enum', values: ['blue', 'silver', 'gold'], weights: { blue: 80, silver: 15, gold: 5 }, description: 'Programme tier.' },
        joined_on: { type: 'date', from: '2018-01-01', to: '2024-12-31', description: 'Date the member joined.' },
      },
    },
    movements: {
      description: "Point movements of each member, in time order; `balance` is the member's balance after the movement.",
      default_rows: 20000,
      credits_per_1000_rows: 1,
      per_parent: 'members',
      options: {
        expiry_rate: { description: 'Share of movements that are point expiries.', schema: { type: 'number', minimum: 0, maximum: 0.2 }, default: 0.02 },
      },
      columns: {
        movement_id: { type: 'id', prefix: 'mov', description: 'Key of the movement.' },
        member_id: { type: 'reference', table: 'members', description: 'The member.' },
        kind: { type: 'enum', values: ['earn', 'redeem', 'expire'], description: 'Earned on a purchase, redeemed, or expired.' },
        points: { type: 'integer', distribution: 'lognormal', mu: 4, sigma: 0.8, min: 1, max: 100000, description: 'Points moved: positive when earned, negative otherwise.' },
        balance: { type: 'integer', description: 'Balance after the movement: never negative.' },
        at: { type: 'timestamp', from: '2025-01-01T00:00:00Z', to: '2025-12-31T23:59:59Z', description: 'When the movement happened (UTC).' },
      },
      start: (ctx: RowContext<MovementOptions>): Balance => ({ points: 0, clock: Date.parse('2025-01-01T00:00:00Z') + ctx.rng.next() * DAY }),
      row: (ctx: RowContext<MovementOptions>, balance: Balance) => {
        const drawn = Number(ctx.draw.points());
        let kind = 'earn';
        let points = drawn;
        if (balance.points > 0 && ctx.rng.chance(ctx.options.expiry_rate)) {
          kind = 'expire';
          points = -Math.min(balance.points, drawn);
        } else if (balance.points >= drawn && ctx.rng.chance(0.3)) {
          kind = 'redeem';
          points = -drawn;
        }
        balance.points += points;
        balance.clock += ctx.rng.exponential(1) * 3 * DAY;
        return { kind, points, balance: balance.points, at: ctx.helpers.isoTimestamp(balance.clock) };
      },
    },
  },
});
