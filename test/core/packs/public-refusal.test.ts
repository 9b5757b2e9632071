import { expect } from 'chai';
import { publicRefusal } from '../../../core/packs/public-refusal.js';

describe('a refused pack as the API shows it', () => {
  it('shows paths within the pack from its folder, the folder by its name, any other path by its last name, plain or as file URLs', () => {
    const refusal = publicRefusal({
      source: '/srv/finsynth/packs/loyalty',
      name: 'loyalty',
      file: '/srv/finsynth/packs/loyalty/src/tables.ts',
      line: 12,
      reasons: [
        'its module cannot be loaded: /srv/finsynth/packs/loyalty/src/tables.ts:12:3: TypeError: x is not a function',
        'while loading /srv/finsynth/packs/loyalty',
        "at load (file:///srv/finsynth/node_modules/piscina/dist/index.js:40:2) ('/home/op/.cache/a.json')",
      ],
    });
    expect(refusal).to.deep.equal({
      source: 'loyalty',
      name: 'loyalty',
      file: 'src/tables.ts',
      line: 12,
      reasons: [
        'its module cannot be loaded: src/tables.ts:12:3: TypeError: x is not a function',
        'while loading loyalty',
        "at load (index.js:40:2) ('a.json')",
      ],
    });
  });

  it('keeps a built-in or npm source as it is named, and a refusal without a file', () => {
    for (const source of ['builtin:cards', '@acme/finsynth-pack-fx', 'finsynth-pack-fx']) {
      const refusal = publicRefusal({ source, name: null, reasons: ['its manifest: /tables must have 1 property'] });
      expect(refusal).to.deep.equal({
        source,
        name: null,
        file: null,
        line: null,
        reasons: ['its manifest: /tables must have 1 property'],
      });
    }
    expect(publicRefusal({ source: './packs/fx', name: 'fx', reasons: [] }).source).to.equal('fx');
    const folder = publicRefusal({ source: '/srv/packs/fx', name: null, reasons: ['no index.ts in /srv/packs/fx'] });
    expect(folder).to.include({ source: 'fx' });
    expect(folder.reasons).to.deep.equal(['no index.ts in fx']);
  });
});
