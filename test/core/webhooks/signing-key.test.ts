import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSigningKey } from '../../../core/webhooks/signing-key.js';

describe('the webhook signing key', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'finsynth-signing-key-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('is created once, readable by its owner only, and derives the same secrets when read again', async () => {
    const file = join(directory, 'nested', 'webhook-signing.key');
    const first = await loadSigningKey(file);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    const key = (await readFile(file, 'utf8')).trim();
    expect(key).to.match(/^[0-9a-f]{64}$/);
    const again = await loadSigningKey(file);
    expect(again.secretFor('we_1')).to.equal(first.secretFor('we_1'));
    expect(first.secretFor('we_1')).to.equal(`whsec_${createHmac('sha256', key).update('we_1').digest('base64url')}`);
    expect(first.secretFor('we_2')).not.to.equal(first.secretFor('we_1'));
  });

  it('is the same for instances that create it at once, and leaves no partial file behind', async () => {
    const file = join(directory, 'webhook-signing.key');
    const loaded = await Promise.all(Array.from({ length: 8 }, () => loadSigningKey(file)));
    expect(new Set(loaded.map((secrets) => secrets.secretFor('we_1'))).size).to.equal(1);
    expect(await readdir(directory)).to.deep.equal(['webhook-signing.key']);
  });

  it("is the operator's own when given, and refused when too short to be a key", async () => {
    const file = join(directory, 'given.key');
    await writeFile(file, `${'k'.repeat(40)}\n`);
    const secrets = await loadSigningKey(file);
    expect(secrets.secretFor('we_1')).to.equal(
      `whsec_${createHmac('sha256', 'k'.repeat(40)).update('we_1').digest('base64url')}`,
    );
    await writeFile(file, 'short');
    const refused = await loadSigningKey(file).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error);
    expect((refused as Error).message).to.equal(`${file}: the webhook signing key must be at least 32 characters`);
  });
});
