/**
 * The files of a new sector pack (`finsynth pack new NAME`), by path inside its folder. `finsynth` is the pack's
 * peer dependency (the finsynth that loads it provides the SDK) and a development dependency by path, so that
 * `npm install` gives an editor its types.
 */
export function packFiles(name: string, finsynth: string): Record<string, string> {
  return {
    'package.json': `${JSON.stringify(
      {
        name: `finsynth-pack-${name.replace(/_/g, '-')}`,
        version: '0.1.0',
        description: `A finsynth sector pack: ${name}.`,
        type: 'module',
        main: 'index.ts',
        scripts: {
          test: 'finsynth pack test .',
          preview: 'finsynth pack preview .',
          typecheck: 'tsc --noEmit -p .',
        },
        peerDependencies: { finsynth: '>=0.1.0' },
        devDependencies: { finsynth: finsynth, '@types/node': '^20.19.0', typescript: '^5.9.0' },
      },
      null,
      2,
    )}\n`,
    'index.ts': `/**
 * The ${name} sector pack. docs/pack-author-guide.md (in finsynth) explains every member; run
 * \`finsynth pack test .\` after each change, and \`finsynth pack preview .\` to see rows.
 */
import { definePack, type RowContext } from 'finsynth/sdk';

/** Segments by weight: a module-level constant, so that weightedPick builds its table once. */
const SEGMENTS = { retail: 80, premium: 15, private: 5 };

export default definePack({
  name: '${name}',
  version: '0.1.0',
  description: 'TODO: the domain this pack generates.',
  tables: {
    customers: {
      description: 'TODO: what one row is.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      columns: {
        customer_id: { type: 'id', prefix: 'cus', description: 'Key of the customer.' },
        name: { type: 'person_name', description: 'Full name.' },
        email: { type: 'email', name_column: 'name', description: 'E-mail address.' },
        country: { type: 'country', codes: ['GB', 'DE', 'FR', 'NL'], description: 'Country of residence.' },
        joined_on: { type: 'date', from: '2018-01-01', to: '2024-12-31', description: 'Day the customer joined.' },
        segment: {
          type: 'enum',
          values: ['retail', 'premium', 'private'],
          computed: true,
          description: 'Customer segment, set by the row function below.',
        },
        balance: {
          type: 'money',
          currency: 'EUR',
          distribution: 'lognormal',
          mu: 7,
          sigma: 1.2,
          description: 'Balance in EUR.',
        },
      },
      // Columns left out of the returned row are drawn from their definitions.
      row: (ctx: RowContext) => ({ segment: ctx.helpers.weightedPick(ctx.rng, SEGMENTS) }),
    },
  },
});
`,
    'test/pack.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPack } from 'finsynth/test-kit';

const pack = new URL('..', import.meta.url);

test('passes the finsynth pack test kit', async () => {
  const report = await checkPack(pack, { rows: 2000, seed: 7 });
  assert.equal(report.tables.customers.rows, 2000);
});
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['**/*.ts'],
        exclude: ['node_modules'],
      },
      null,
      2,
    )}\n`,
    'README.md': `# ${name}: a finsynth sector pack

Made with \`finsynth pack new ${name}\`. Edit \`index.ts\` (finsynth's docs/pack-author-guide.md explains every
member), then:

\`\`\`sh
finsynth pack test .              # the pack test kit, then the tests under test/ (node's test runner)
finsynth pack preview .           # the first table's first 20 rows (--table T --rows N)
finsynth generate config.yaml --out out/ --packs .   # a dataset, locally
FINSYNTH_PACKS=$PWD finsynth serve                    # the service, with this pack installed
\`\`\`

Nothing needs to be installed here to run it: the finsynth that loads the pack provides \`finsynth/sdk\` and
\`finsynth/test-kit\` (finsynth is a peer dependency). \`npm install\` links finsynth (a development dependency by
path) and TypeScript's Node types, for an editor and for \`npm run typecheck\`.
`,
  };
}
