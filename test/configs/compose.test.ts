import { expect } from 'chai';
import { compose } from '../../core/configs/compose.js';

const base = {
  version: 1,
  sector: 'cards',
  seed: 7,
  tables: [
    { name: 'accounts', rows: 100 },
    { name: 'transactions', rows: 1000, columns: { amount: { distribution: 'lognormal', mu: 3, sigma: 1 } }, options: { fraud_rate: 0.01 } },
  ],
  output: { format: 'csv', compression: 'gzip' },
};

describe('config composition', () => {
  it('merges maps deeply and tables by name, and says which layer set each field', () => {
    const result = compose([
      { ref: 'cfg_base', content: base },
      { ref: 'ovl_big', content: { tables: [{ name: 'transactions', rows: 50000, columns: { amount: { sigma: 1.5 } } }, { name: 'cards', rows: 10 }] } },
      { ref: 'ovl_json', content: { output: { format: 'json' } } },
    ]);
    expect(result.config).to.deep.equal({
      version: 1,
      sector: 'cards',
      seed: 7,
      tables: [
        { name: 'accounts', rows: 100 },
        { name: 'transactions', rows: 50000, columns: { amount: { distribution: 'lognormal', mu: 3, sigma: 1.5 } }, options: { fraud_rate: 0.01 } },
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
      { ref: 'ovl', content: { seed: null, tables: [{ name: 'transactions', columns: null, options: { fraud_rate: null } }] } },
    ]);
    expect(result.config.seed).to.equal(undefined);
    expect((result.config.tables as object[])[1]).to.deep.equal({ name: 'transactions', rows: 1000, options: {} });
    expect(Object.keys(result.sources).filter((pointer) => pointer.startsWith('/tables/1/columns'))).to.deep.equal([]);
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
    compose([{ ref: 'base', content: layer }, { ref: 'o', content: { tables: [{ name: 'accounts', rows: 1 }] } }]);
    expect(layer).to.deep.equal(base);
  });
});
