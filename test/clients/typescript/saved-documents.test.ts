import { expect } from 'chai';
import { Finsynth } from '../../../clients/typescript/src/index.js';
import { openAccount, startTestApp, type TestApp } from '../../support/app.js';

describe('@finsynth/client: saved configs and overlays', function () {
  this.timeout(60_000);
  let app: TestApp;
  let finsynth: Finsynth;

  before(async () => {
    app = await startTestApp();
    finsynth = new Finsynth({ apiKey: (await openAccount(app)).test, baseUrl: app.url });
  });
  after(() => app?.close());

  it('renames a saved config with its name alone, keeping its config, and replaces the config alone', async () => {
    const config = { version: 1, sector: 'cards', seed: 4, tables: [{ name: 'cards', rows: 10 }] };
    const saved = await finsynth.configs.create({ name: 'nightly', config });
    const renamed = await finsynth.configs.update(saved.id, { name: 'nightly cards' });
    expect(renamed).to.include({ id: saved.id, name: 'nightly cards', version: saved.version + 1 });
    expect(renamed.config).to.deep.equal(saved.config);
    const replaced = await finsynth.configs.update(saved.id, { config: { ...config, seed: 5 } });
    expect(replaced).to.include({ name: 'nightly cards', version: saved.version + 2 });
    expect(replaced.config).to.include({ seed: 5 });
  });

  it('renames an overlay with its name alone, keeping its content', async () => {
    const saved = await finsynth.overlays.create({ name: 'small', overlay: { tables: [{ name: 'cards', rows: 5 }] } });
    const renamed = await finsynth.overlays.update(saved.id, { name: 'smaller' });
    expect(renamed).to.include({ id: saved.id, name: 'smaller', version: saved.version + 1 });
    expect(renamed.overlay).to.deep.equal(saved.overlay);
  });
});
