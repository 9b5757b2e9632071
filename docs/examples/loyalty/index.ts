/**
 * An example third-party sector pack: a retail loyalty programme. It lives outside plugins/, in a folder of its
 * own with its package.json, and imports finsynth as any third-party pack does (`finsynth/sdk`); it is loaded the
 * way an operator installs one (FINSYNTH_PACKS=docs/examples/loyalty). It shows a flat table, a per-parent table
 * with a running balance kept in state, an option, a draw through `ctx.draw` so that users' overrides apply,
 * computed columns, a per-parent table whose parent decides its row count (`rows_per_parent`) from a typed
 * `lookup`, and the date helpers. `finsynth pack test docs/examples/loyalty` runs the pack test kit and its tests.
 */
import { addMonths, defineColumns, definePack, payDay, type RowContext, type RowOf } from 'finsynth/sdk';

interface MovementOptions {
  expiry_rate: number;
}

/** A member's points balance, carried from one movement to the next. */
interface Balance {
  points: number;
  clock: number;
}

const DAY = 86_400_000;

/** A member's columns, declared apart so that `RowOf` types the member rows other tables look up. */
const memberColumns = defineColumns({
  member_id: { type: 'id', prefix: 'mem', description: 'Key of the member.' },
  name: { type: 'person_name', description: 'Full name.' },
  email: { type: 'email', name_column: 'name', description: 'E-mail address.' },
  tier: {
    type: 'enum',
    values: ['blue', 'silver', 'gold'],
    weights: { blue: 80, silver: 15, gold: 5 },
    description: 'Programme tier.',
  },
  joined_on: { type: 'date', from: '2018-01-01', to: '2024-12-31', description: 'Date the member joined.' },
});
type Member = RowOf<typeof memberColumns>;

/** Rewards a member holds, by tier. */
export const REWARDS_BY_TIER: Readonly<Record<Member['tier'], number>> = { blue: 0, silver: 1, gold: 3 };

export default definePack({
  name: 'loyalty',
  version: '1.0.0',
  description: 'A retail loyalty programme: members and their point movements with running balances.',
  tables: {
    members: {
      description: 'Members of the programme.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: memberColumns,
    },
    movements: {
      description:
        "Point movements of each member, in time order; `balance` is the member's balance after the movement.",
      default_rows: 20000,
      credits_per_1000_rows: 1,
      per_parent: 'members',
      options: {
        expiry_rate: {
          description: 'Share of movements that are point expiries.',
          schema: { type: 'number', minimum: 0, maximum: 0.2 },
          default: 0.02,
        },
      },
      columns: {
        movement_id: { type: 'id', prefix: 'mov', description: 'Key of the movement.' },
        member_id: { type: 'reference', table: 'members', description: 'The member.' },
        kind: {
          type: 'enum',
          values: ['earn', 'redeem', 'expire'],
          computed: true,
          description: 'Earned on a purchase, redeemed, or expired.',
        },
        points: {
          type: 'integer',
          distribution: 'lognormal',
          mu: 4,
          sigma: 0.8,
          min: 1,
          max: 100000,
          description: 'Points moved: positive when earned, negative otherwise.',
        },
        balance: { type: 'integer', computed: true, description: 'Balance after the movement: never negative.' },
        at: { type: 'timestamp', computed: true, description: 'When the movement happened (UTC), from early 2025 on.' },
      },
      start: (ctx: RowContext<MovementOptions>): Balance => ({
        points: 0,
        clock: Date.parse('2025-01-01T00:00:00Z') + ctx.rng.next() * DAY,
      }),
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
    rewards: {
      description:
        'Rewards each member holds: three for gold members, one for silver, none for blue. ' +
        'Members come in order with all their rewards, up to the rows requested.',
      default_rows: 200,
      credits_per_1000_rows: 1,
      per_parent: 'members',
      columns: {
        reward_id: { type: 'id', prefix: 'rwd', description: 'Key of the reward.' },
        member_id: { type: 'reference', table: 'members', description: 'The member.' },
        reward: {
          type: 'enum',
          values: ['voucher', 'free_delivery', 'lounge_pass'],
          weights: { voucher: 6, free_delivery: 3, lounge_pass: 1 },
          description: 'What the reward is.',
        },
        valid_until: {
          type: 'date',
          computed: true,
          description:
            'The pay day (the last business day) of the month a year after the member joined: rewards run for ' +
            "a year and end with a month's payroll.",
        },
      },
      // The member's tier decides how many rows the member has in this table.
      rows_per_parent: (ctx) => REWARDS_BY_TIER[ctx.lookup<Member>('members', ctx.parent).tier],
      row: (ctx) => {
        const joined = ctx.lookup<Member>('members', ctx.parent).joined_on;
        return { valid_until: payDay(addMonths(joined, 12).slice(0, 7), 'last') };
      },
    },
  },
});
