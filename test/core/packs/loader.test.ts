import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { loadPacks, refusalMessage } from '../../../core/packs/loader.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import cards from '../../../plugins/cards/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('pack loading', () => {
  it('loads the built-in packs and third-party packs from a directory', async () => {
    const registry = await loadPacks({ extra: [fixture('good')] });
    expect(registry.names()).to.include.members(['cards', 'tiny']);
    expect(registry.refused.map((refused) => refused.source)).not.to.include(fixture('good'));
    expect(registry.loaded('tiny').source).to.equal(fixture('good'));
  });

  it('refuses a bad pack with a message naming it and each reason, and loads the others', async () => {
    const registry = await loadPacks({
      extra: [fixture('bad-manifest'), fixture('broken-module'), fixture('good'), 'no-such-finsynth-pack'],
    });
    expect(registry.names()).to.include.members(['cards', 'tiny']);
    expect(registry.names()).not.to.include('badmanifest');
    const [badManifest, brokenModule, missing] = registry.refused.filter(
      (refused) => !refused.source.startsWith('builtin:'),
    );
    expect(badManifest.name).to.equal('badmanifest');
    const message = refusalMessage(badManifest);
    expect(message).to.contain('"badmanifest"').and.to.contain(fixture('bad-manifest'));
    expect(message).to.contain('/version');
    expect(brokenModule.reasons[0]).to.contain('cannot be loaded').and.to.contain('fails at import');
    expect(missing.source).to.equal('no-such-finsynth-pack');
    expect(missing.reasons[0]).to.contain('cannot be loaded');
  });

  it('refuses a pack whose top-level code never finishes (an endless loop, an await that never settles), naming it and why, and loads the others', async function () {
    this.timeout(60_000);
    // given two packs that hang while loading, among good ones
    const hanging = [fixture('endless-loop'), fixture('never-settles')];
    // when the host loads them
    const registry = await loadPacks({ extra: [...hanging, fixture('good')], loadTimeoutMs: 4000 });
    // then both are refused with the reason, and the built-ins and the good pack are served
    expect(registry.names()).to.include.members(['cards', 'lending', 'insurance', 'tiny']);
    const [loop, never] = hanging.map((source) => registry.refused.find((refused) => refused.source === source)!);
    expect(refusalMessage(loop))
      .to.contain(fixture('endless-loop'))
      .and.to.contain('did not finish loading within 4 s');
    expect(refusalMessage(never))
      .to.contain(fixture('never-settles'))
      .and.to.contain('awaits something that never settles');
  });

  it('checks what a schema cannot: column parameters, references, dependency columns, option defaults, cycles', () => {
    const { amount } = cards.tables.transactions.columns;
    const reasons = checkManifest({
      ...cards,
      tables: {
        ...cards.tables,
        cards: {
          ...cards.tables.cards,
          columns: { ...cards.tables.cards.columns, pan: { type: 'pan', networks: ['diners'], description: 'x' } },
        },
        merchants: {
          ...cards.tables.merchants,
          columns: {
            ...cards.tables.merchants.columns,
            owner: { type: 'reference', table: 'nowhere', description: 'x' },
          },
        },
        transactions: {
          ...cards.tables.transactions,
          columns: { ...cards.tables.transactions.columns, amount: { ...amount, currency_column: 'constructor' } },
          options: { fraud_rate: { description: 'x', schema: { type: 'number', maximum: 0.1 }, default: 0.5 } },
        },
      },
    });
    expect(reasons.join('\n'))
      .to.contain('table "cards", column "pan"')
      .and.to.contain('"merchants", column "owner": references no other table')
      .and.to.contain('option "fraud_rate": its default fails its own schema');
    expect(reasons, 'a name every object inherits is no column').to.include(
      'table "transactions", column "amount": currency_column names no column of the table ("constructor")',
    );
    expect(checkManifest(cards)).to.deep.equal([]);
  });

  it('resolves an npm package by name and refuses one that is not a pack', async () => {
    const registry = await loadPacks({ builtinDir: '/nonexistent', extra: ['yaml'] });
    expect(registry.names()).to.deep.equal([]);
    expect(registry.refused[0].source).to.equal('yaml');
    expect(registry.refused[0].reasons.join('; ')).to.contain("must have required property 'name'");
  });

  it('refuses a duplicate pack name', async () => {
    const registry = await loadPacks({ extra: [fixture('good'), fixture('good')] });
    const duplicates = registry.refused.filter((refused) => refused.name === 'tiny');
    expect(duplicates).to.have.length(1);
    expect(duplicates[0].reasons[0]).to.contain('already loaded');
  });
});
