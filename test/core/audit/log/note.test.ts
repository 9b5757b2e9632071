import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openNote,
  parseSignerKey,
  parseVerifierKey,
  signerKeyFromSeed,
  signNote,
} from '../../../../core/audit/log/note.js';
import { checkpointText, openCheckpoint, signCheckpoint } from '../../../../core/audit/log/checkpoint.js';
import { EMPTY_ROOT, leafHash } from '../../../../core/audit/log/hashes.js';
import { loadAuditSigningKey } from '../../../../core/audit/log/signing-key.js';

/**
 * The example key and note of Go's golang.org/x/mod/sumdb/note (its documentation and tests): Ed25519 is
 * deterministic, so signing the same text with the same key must give the published note byte for byte,
 * and then every tool of that ecosystem reads our checkpoints.
 */
const GO_VERIFIER_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_SIGNER_KEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE =
  `${GO_TEXT}\n\u2014 PeterNeumann ` +
  'x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';

describe('signed notes (C2SP signed-note) and checkpoints (C2SP tlog-checkpoint)', () => {
  it("signs as Go's note package does, byte for byte, and opens its note", () => {
    const signer = parseSignerKey(GO_SIGNER_KEY);
    expect(signer.verifierKey).to.equal(GO_VERIFIER_KEY);
    expect(signNote(GO_TEXT, signer)).to.equal(GO_NOTE);
    expect(openNote(GO_NOTE, parseVerifierKey(GO_VERIFIER_KEY))).to.deep.equal({ verified: true, text: GO_TEXT });
  });

  it('refuses a note with any byte changed, and keys with any byte changed', () => {
    const verifier = parseVerifierKey(GO_VERIFIER_KEY);
    const bytes = Buffer.from(GO_NOTE, 'utf8');
    const accepted: number[] = [];
    for (let i = 0; i < bytes.length; i += 1) {
      const changed = Buffer.from(bytes);
      changed[i] ^= 0x01;
      if (openNote(changed.toString('utf8'), verifier).verified) accepted.push(i);
    }
    expect(accepted).to.deep.equal([]);
    for (let i = 0; i < GO_VERIFIER_KEY.length; i += 1) {
      const changed =
        GO_VERIFIER_KEY.slice(0, i) +
        String.fromCharCode(GO_VERIFIER_KEY.charCodeAt(i) + 1) +
        GO_VERIFIER_KEY.slice(i + 1);
      expect(() => parseVerifierKey(changed), changed).to.throw();
    }
  });

  it('ignores signatures of other keys, and needs one of its own', () => {
    const other = parseSignerKey(signerKeyFromSeed('witness.example/w1', randomBytes(32)));
    const cosigned = GO_NOTE + signNote(GO_TEXT, other).slice(GO_TEXT.length + 1);
    const verifier = parseVerifierKey(GO_VERIFIER_KEY);
    expect(openNote(cosigned, verifier)).to.deep.equal({ verified: true, text: GO_TEXT });
    const onlyOther = signNote(GO_TEXT, other);
    expect(openNote(onlyOther, verifier)).to.deep.equal({
      verified: false,
      reason: 'the note carries no signature of PeterNeumann',
    });
    // Another key under the same name: said so, with both key IDs, rather than as no signature at all.
    const sameName = parseSignerKey(signerKeyFromSeed('PeterNeumann', randomBytes(32)));
    const opened = openNote(signNote(GO_TEXT, sameName), verifier);
    expect(opened.verified).to.equal(false);
    expect(opened.verified || opened.reason).to.match(
      /^the note is signed by another key named PeterNeumann \(key ID [0-9a-f]{8}, not the given key's [0-9a-f]{8}\)/,
    );
  });

  it('writes a checkpoint as origin, size and base64 root, signed by the key named after the origin', () => {
    const signer = parseSignerKey(signerKeyFromSeed('example.test/finsynth/audit', randomBytes(32)));
    const root = leafHash(Buffer.from('x'));
    const signed = signCheckpoint({ origin: 'example.test/finsynth/audit', size: 12, root }, signer);
    expect(checkpointText(signed)).to.equal(`example.test/finsynth/audit\n12\n${root.toString('base64')}\n`);
    expect(signed.note.startsWith(`${checkpointText(signed)}\n\u2014 example.test/finsynth/audit `)).to.equal(true);
    const opened = openCheckpoint(signed.note, parseVerifierKey(signer.verifierKey));
    expect(opened.verified && opened.checkpoint.size).to.equal(12);
    expect(opened.verified && opened.checkpoint.root.equals(root)).to.equal(true);

    // Signed by the right key but naming another log: not this log's checkpoint.
    const foreign = signNote(`other.test/log\n12\n${EMPTY_ROOT.toString('base64')}\n`, signer);
    expect(openCheckpoint(foreign, parseVerifierKey(signer.verifierKey))).to.deep.include({ verified: false });
  });

  describe('the signing key file', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'finsynth-audit-key-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('is created once, 0600, and read again with the same key; another origin is refused', async () => {
      const file = join(dir, 'audit-signing.key');
      const first = await loadAuditSigningKey(file, 'example.test/log');
      expect(first.created).to.equal(true);
      expect((await stat(file)).mode & 0o777).to.equal(0o600);
      expect((await readFile(file, 'utf8')).startsWith('PRIVATE+KEY+example.test/log+')).to.equal(true);
      const again = await loadAuditSigningKey(file, undefined);
      expect(again.created).to.equal(false);
      expect(again.signer.verifierKey).to.equal(first.signer.verifierKey);
      await loadAuditSigningKey(file, 'other.test/log').then(
        () => expect.fail('another origin was accepted'),
        (error: Error) => expect(error.message).to.include('a log keeps its origin'),
      );
    });

    it('instances starting together end up with one key', async () => {
      const file = join(dir, 'audit-signing.key');
      const keys = await Promise.all([1, 2, 3, 4].map(() => loadAuditSigningKey(file, 'example.test/log')));
      expect(new Set(keys.map((key) => key.signer.verifierKey)).size).to.equal(1);
      expect(keys.filter((key) => key.created)).to.have.length(1);
    });

    it('refuses a file that holds no key', async () => {
      const file = join(dir, 'audit-signing.key');
      await writeFile(file, 'not a key\n', { mode: 0o600 });
      await loadAuditSigningKey(file, undefined).then(
        () => expect.fail('a broken key file was accepted'),
        (error: Error) => expect(error.message).to.include('holds no audit signing key'),
      );
    });
  });
});
