import { expect } from 'chai';
import { defineColumns, definePack, type RowOf } from '../../../core/packs/sdk.js';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

const accountColumns = defineColumns({
  account_id: { type: 'id', prefix: 'acc', description: 'Key.' },
  kind: { type: 'enum', values: ['current', 'savings'], description: 'Kind.' },
  limit: { type: 'money', currency: 'EUR', distribution: 'uniform', min: 100, max: 900, description: 'Limit.' },
  closed: { type: 'boolean', rate: 0.1, description: 'Closed.' },
  nickname: { type: 'string', values: ['a', 'b'], nullable: true, null_rate: 0.5, description: 'Nickname.' },
});
type Account = RowOf<typeof accountColumns>;

// Compile-time checks: the columns' types reach the looked-up row.
const kinds: Account['kind'][] = ['current', 'savings'];
// @ts-expect-error an enum column holds its values only
const wrongKind: Account['kind'] = 'loan';
const limit: Account['limit'] = 12.5;
const nickname: Account['nickname'] = null;

const pack = definePack({
  name: 'typed',
  version: '1.0.0',
  description: 'Typed lookups.',
  tables: {
    accounts: { description: 'Accounts.', default_rows: 50, credits_per_1000_rows: 1, columns: accountColumns },
    statements: {
      description: 'Statements.',
      default_rows: 200,
      credits_per_1000_rows: 1,
      columns: {
        statement_id: { type: 'id', prefix: 'stm', description: 'Key.' },
        account_id: { type: 'reference', table: 'accounts', description: 'Account.' },
        headroom: { type: 'money', currency: 'EUR', computed: true, description: 'Half the limit.' },
        kind: { type: 'enum', values: ['current', 'savings'], computed: true, description: "The account's kind." },
      },
      row: (ctx) => {
        const account = ctx.lookup<Account>('accounts', ctx.ref('account_id'));
        // Typed: arithmetic on a money column and a union for an enum column, with no conversion.
        const kind: 'current' | 'savings' = account.kind;
        return { headroom: account.limit / 2, kind };
      },
    },
  },
});

describe('typed lookups (defineColumns, RowOf, ctx.lookup<Row>)', () => {
  it("types the looked-up row from the table's columns and returns its values as generated", () => {
    expect([kinds, wrongKind, limit, nickname]).to.have.length(4);
    const plan = planFor(pack, {
      seed: 5,
      tables: [
        { name: 'statements', rows: 300 },
        { name: 'accounts', rows: 40 },
      ],
    });
    const accounts = new Map(rowsOf(generateInline(pack, plan, 'accounts')).map((row) => [row.account_id, row]));
    const statements = rowsOf(generateInline(pack, plan, 'statements'));
    for (const statement of statements) {
      const account = accounts.get(statement.account_id)!;
      expect(statement.kind).to.equal(account.kind);
      expect(statement.headroom).to.be.closeTo(Number(account.limit) / 2, 0.006);
    }
    expect(new Set(statements.map((statement) => statement.kind)).size).to.equal(2);
  });
});
