import { expect } from 'chai';
import { compose } from '../../../core/configs/compose.js';

const base = {
  version: 1,
  sector: 'cards',
  seed: 7,
  tables: [
    { name: 'accounts', rows: 100 },
    {
      name: 'transactions',
      rows: 1000,
      columns: { amount: { distribution: 'lognormal', mu: 3, sigma: 1 } },
      options: { fraud_rate: 0.01 },
    },
  ],
  output: { format: 'csv', compression: 'gzip' },
};

describe('config composition', () => {
  it('merges maps deeply and tables by name, and says which layer set each field', () => {
    const result = compose([
      { ref: 'cfg_base', content: base },
      {
        ref: 'ovl_big',
        content: {
          tables: [
            { name: 'transactions', rows: 50000, columns: { amount: { sigma: 1.5 } } },
            { name: 'cards', rows: 10 },
          ],
        },
      },
      { ref: 'ovl_json', content: { output: { format: 'json' } } },
    ]);
    expect(result.config).to.deep.equal({
      version: 1,
      sector: 'cards',
      seed: 7,
      tables: [
        { name: 'accounts', rows: 100 },
        {
          name: 'transactions',
          rows: 50000,
          columns: { amount: { distribution: 'lognormal', mu: 3, sigma: 1.5 } },
          options: { fraud_rate: 0.01 },
        },
        { name: 'cards', rows: 10 },
      ],
      output: { format: 'json', compression: 'gzip' },
    });
    expect(result.sources).to.deep.equal({
      '/version': 'cfg_base',
      '/sector': 'cfg_base',
      '/seed': 'cfg_base',
      '/tables/0/name': 'cfg_base',
      '/tables/0/rows': 'cfg_base',
      '/tables/1/name': 'cfg_base',
      '/tables/1/rows': 'ovl_big',
      '/tables/1/columns/amount/distribution': 'cfg_base',
      '/tables/1/columns/amount/mu': 'cfg_base',
      '/tables/1/columns/amount/sigma': 'ovl_big',
      '/tables/1/options/fraud_rate': 'cfg_base',
      '/tables/2/name': 'ovl_big',
      '/tables/2/rows': 'ovl_big',
      '/output/format': 'ovl_json',
      '/output/compression': 'cfg_base',
    });
  });

  it('removes a member set to null, with everything below it', () => {
    const result = compose([
      { ref: 'base', content: base },
      {
        ref: 'ovl',
        content: { seed: null, tables: [{ name: 'transactions', columns: null, options: { fraud_rate: null } }] },
      },
    ]);
    expect(result.config.seed).to.equal(undefined);
    expect((result.config.tables as object[])[1]).to.deep.equal({ name: 'transactions', rows: 1000, options: {} });
    expect(Object.keys(result.sources).filter((pointer) => pointer.startsWith('/tables/1/columns'))).to.deep.equal([]);
    expect(result.removed).to.deep.equal([
      { pointer: '/seed', layer: 'ovl' },
      { pointer: '/tables/1/columns', layer: 'ovl' },
      { pointer: '/tables/1/options/fraud_rate', layer: 'ovl' },
    ]);
  });

  it('removes a table given as { name, remove: true }, and says which layer removed it', () => {
    const result = compose([
      { ref: 'cfg_base', content: base },
      { ref: 'ovl_rows', content: { tables: [{ name: 'transactions', rows: 20 }] } },
      { ref: 'ovl_drop', content: { tables: [{ name: 'accounts', remove: true }] } },
    ]);
    expect(result.config.tables).to.deep.equal([
      {
        name: 'transactions',
        rows: 20,
        columns: { amount: { distribution: 'lognormal', mu: 3, sigma: 1 } },
        options: { fraud_rate: 0.01 },
      },
    ]);
    // The table that moved up keeps its attributions, at its new index.
    expect(result.sources).to.include({
      '/tables/0/name': 'cfg_base',
      '/tables/0/rows': 'ovl_rows',
      '/tables/0/options/fraud_rate': 'cfg_base',
    });
    expect(Object.keys(result.sources).filter((pointer) => pointer.startsWith('/tables/1'))).to.deep.equal([]);
    expect(result.removed).to.deep.equal([{ pointer: '/tables', name: 'accounts', layer: 'ovl_drop' }]);
  });

  it('gives a removed table back when a later layer names it again, attributed to that layer alone', () => {
    const result = compose([
      { ref: 'base', content: base },
      { ref: 'drop', content: { tables: [{ name: 'transactions', remove: true }], seed: null } },
      { ref: 'again', content: { tables: [{ name: 'transactions', rows: 3 }], seed: 9 } },
    ]);
    expect(result.config.tables).to.deep.equal([
      { name: 'accounts', rows: 100 },
      { name: 'transactions', rows: 3 },
    ]);
    expect(result.sources).to.include({ '/tables/1/name': 'again', '/tables/1/rows': 'again', '/seed': 'again' });
    expect(result.removed).to.deep.equal([]);
  });

  it('removes nothing when the named table is not there, and makes no list for it', () => {
    const absent = compose([
      { ref: 'base', content: base },
      { ref: 'drop', content: { tables: [{ name: 'cards', remove: true }] } },
    ]);
    expect(absent.config).to.deep.equal(base);
    expect(absent.removed).to.deep.equal([]);
    const none = compose([
      { ref: 'base', content: { version: 1 } },
      { ref: 'drop', content: { tables: [{ name: 'cards', remove: true }] } },
    ]);
    expect(none.config).to.deep.equal({ version: 1 });
  });

  it('replaces lists of scalars whole, and a replaced map takes its attribution along', () => {
    const result = compose([
      { ref: 'base', content: { tags: ['a', 'b', 'c'], output: { format: 'csv' } } },
      { ref: 'one', content: { tags: ['z'] } },
      { ref: 'two', content: { output: 'ndjson' } },
      { ref: 'three', content: { output: { compression: 'none' } } },
    ]);
    expect(result.config).to.deep.equal({ tags: ['z'], output: { compression: 'none' } });
    expect(result.sources).to.deep.equal({ '/tags': 'one', '/output/compression': 'three' });
  });

  it('replaces a list with an empty one, and merges tables by name into an emptied list', () => {
    const result = compose([
      { ref: 'base', content: base },
      { ref: 'none', content: { tables: [] } },
      { ref: 'one', content: { tables: [{ name: 'cards', rows: 5 }] } },
    ]);
    expect(result.config.tables).to.deep.equal([{ name: 'cards', rows: 5 }]);
    expect(result.sources).to.include({ '/tables/0/name': 'one', '/tables/0/rows': 'one' });
  });

  it('leaves its layers untouched', () => {
    const layer = structuredClone(base);
    compose([
      { ref: 'base', content: layer },
      { ref: 'o', content: { tables: [{ name: 'accounts', rows: 1 }] } },
    ]);
    expect(layer).to.deep.equal(base);
  });

  it('treats members named like Object.prototype members as plain data, and never changes a prototype', () => {
    const layer = JSON.parse(
      '{"tables":[{"name":"t","options":{"toString":null,"constructor":{"a":1},"__proto__":{"polluted":true}}}]}',
    ) as Record<string, unknown>;
    const result = compose([
      { ref: 'base', content: { tables: [{ name: 't', options: { kept: 1 } }] } },
      { ref: 'o', content: layer },
    ]);
    expect(result.config.tables).to.deep.equal([{ name: 't', options: { kept: 1, constructor: { a: 1 } } }]);
    expect(result.removed, 'a null for a member that was never set removes nothing').to.deep.equal([]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.getPrototypeOf((result.config.tables as object[])[0])).to.equal(Object.prototype);
  });
});
