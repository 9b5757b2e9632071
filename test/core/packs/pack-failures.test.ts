import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPacks, refusalMessage } from '../../../core/packs/loader.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { openAccount, request, startTestApp } from '../../support/app.js';

/** A pack module in a folder of its own, outside finsynth's tree; `row` is the source of its table's generator. */
const packSource = (name: string, row: string) => `import { definePack } from 'finsynth/sdk';

export default definePack({
  name: '${name}',
  version: '1.0.0',
  description: 'Fails on purpose.',
  tables: {
    things: {
      description: 'Things.',
      default_rows: 10,
      credits_per_1000_rows: 1,
      columns: { thing_id: { type: 'id', prefix: 'thg', description: 'Key.' } },
      row: ${row},
    },
  },
});
`;

describe('packs that fail: what the operator is told', function () {
  this.timeout(60_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-pack-failures-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function pack(folder: string, source: string): Promise<string> {
    const path = join(dir, folder);
    await mkdir(path, { recursive: true });
    await writeFile(join(path, 'index.ts'), source);
    return path;
  }

  it('refuses a syntax error, a throwing top level and a hang with the pack, file, line and cause; the others load', async () => {
    const syntax = await pack(
      'syntax',
      packSource('syntax', '() => ({ })').replace("name: 'syntax',", "name: 'syntax'"),
    );
    const throws = await pack('throws', "import 'finsynth/sdk';\n\nthrow new RangeError('no tables yet');\n");
    const hangs = await pack('hangs', 'for (;;) {\n  // forever\n}\n');
    const good = await pack('good', packSource('good', '() => ({})'));
    const registry = await loadPacks({
      builtinDir: '/nonexistent',
      extra: [syntax, throws, hangs, good],
      loadTimeoutMs: 3000,
    });
    expect(registry.names()).to.deep.equal(['good']);
    const [bySyntax, byThrow, byHang] = registry.refused;
    expect(bySyntax).to.deep.include({ name: 'syntax', file: join(syntax, 'index.ts'), line: 5 });
    expect(refusalMessage(bySyntax)).to.equal(
      `sector pack "syntax" from ${syntax} refused: its module cannot be loaded: ` +
        `${join(syntax, 'index.ts')}:5:2: syntax error: Expected "}" but found "version"`,
    );
    expect(byThrow).to.deep.include({ name: 'throws', file: join(throws, 'index.ts'), line: 3 });
    expect(refusalMessage(byThrow)).to.contain(`${join(throws, 'index.ts')}:3:7: RangeError: no tables yet`);
    expect(byHang).to.deep.include({ name: 'hangs', file: join(hangs, 'index.ts'), line: null });
    expect(refusalMessage(byHang)).to.contain('did not finish loading within 3 s');
  });

  it("lists refused packs in /readyz's answer and in the catalog's, and serves the others", async () => {
    const broken = await pack('served-broken', "import 'finsynth/sdk';\n\nthrow new Error('not today');\n");
    const good = await pack('served-good', packSource('served_good', '() => ({})'));
    const app = await startTestApp({ config: { packs: [broken, good] } });
    try {
      const ready = await request(app, 'GET', '/readyz');
      expect(ready.status).to.equal(200);
      // Anyone may ask /readyz: the answer shows paths within the pack, never the server's folders.
      expect(ready.body.refused_packs).to.deep.equal([
        {
          source: 'served-broken',
          name: 'served-broken',
          file: 'index.ts',
          line: 3,
          reasons: ['its module cannot be loaded: index.ts:3:7: Error: not today'],
        },
      ]);
      expect(ready.text).to.not.contain(dirname(broken));
      const account = await openAccount(app);
      const catalog = await request(app, 'GET', '/v1/catalog', { key: account.test });
      expect(catalog.status).to.equal(200);
      expect(catalog.body.refused_packs).to.deep.equal([
        { name: 'served-broken', reasons: ready.body.refused_packs[0].reasons },
      ]);
      expect(catalog.body.sectors.map((sector: { name: string }) => sector.name)).to.include('served_good');
    } finally {
      await app.close();
    }
  });

  it("names the pack and table whose warm-up fails or hangs, as the service's log shows it", async () => {
    const throwing = await pack('warm-throws', packSource('warm_throws', "() => { throw new Error('no row'); }"));
    const hanging = await pack('warm-hangs', packSource('warm_hangs', '() => { for (;;); }'));
    for (const [path, name, expected] of [
      [throwing, 'warm_throws', /sector pack "warm_throws" \(file:.*\), table "things": .*no row/],
      [hanging, 'warm_hangs', /did not finish within 2 s, still at sector pack "warm_hangs", table "things"/],
    ] as const) {
      const registry = await loadPacks({ builtinDir: '/nonexistent', extra: [path] });
      expect(registry.names()).to.deep.equal([name]);
      const pool = new GenerationPool(registry, { size: 1, chunkTimeoutMs: 1000 });
      try {
        const failure = await pool.warm().then(
          () => null,
          (error: Error) => error,
        );
        expect(failure?.message).to.match(expected);
      } finally {
        await pool.close();
      }
    }
  });
});
