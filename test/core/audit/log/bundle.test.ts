import { expect } from 'chai';
import fc from 'fast-check';
import { appendLeaves, EMPTY_TREE, compactRoot } from '../../../../core/audit/log/compact-tree.js';
import { leafHash, type Hash } from '../../../../core/audit/log/hashes.js';
import { InclusionChecker } from '../../../../core/audit/log/inclusion-checker.js';
import { parseVerifierKey } from '../../../../core/audit/log/note.js';
import { inclusionRanges, proofHashes } from '../../../../core/audit/log/proofs.js';
import { nodeKey } from '../../../../core/audit/log/subtrees.js';
import { verifyBundle } from '../../../../core/audit/log/verify-bundle.js';
import { bundleLines } from '../../../../core/audit/log/bundle-export.js';
import { startedLog } from './started-log.js';
import { accountStream } from '../../../../core/accounts/account.js';
import type { NewEvent } from '../../../../core/events/envelope.js';
import { MemoryEventStore } from '../../../../core/store/memory-store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '../../../../core/events/canonical-json.js';
import { chainHash } from '../../../../core/events/hash-chain.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../../support/app.js';
import type { JsonBody } from '../../../support/json-body.js';

describe('the export bundle, verified offline', function () {
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let bundle: string;

  before(async () => {
    app = await startTestApp({ config: { auditCheckpointIntervalMs: 20 } });
    account = await openAccount(app, { credits: 5_000 });
    const other = await openAccount(app, { credits: 100 });
    for (let i = 0; i < 6; i += 1) {
      for (const { accountId } of [account, other])
        await app.services.credits.debit({
          accountId,
          mode: 'live',
          keyId: null,
          reference: `req_${i}`,
          operation: 'generate.quick',
          sector: 'cards',
          tables: [{ name: 'cardholders', rows: 10, credits: 7 }],
          credits: 7,
        });
    }
    const response = await request(app, 'GET', '/v1/audit/credits/export', { key: account.live });
    expect(response.status, response.text).to.equal(200);
    bundle = response.text;
  });
  after(() => app?.close());

  const verifier = () => parseVerifierKey(app.services.auditLog.verifierKey);

  it('holds as exported', async () => {
    const report = await verifyBundle(bundle, { verifier: verifier() });
    expect(report.failures).to.deep.equal([]);
    expect(report.balance).to.deep.equal({ credits_available: 5_000 - 6 * 7, credits_reserved: 0 });
  });

  it('fails with any one byte changed, wherever it is', async () => {
    const bytes = Buffer.from(bundle, 'utf8');
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, delta) => {
        const changed = Buffer.from(bytes);
        changed[at] = (changed[at] + delta) % 256;
        const report = await verifyBundle(changed.toString('utf8'), { verifier: verifier() });
        expect(report.failures, `byte ${at} (${JSON.stringify(bundle.slice(at - 20, at + 20))})`).to.not.have.length(0);
      }),
      { numRuns: 400 },
    );
  });

  it('fails with a line removed, repeated, or two lines swapped', async () => {
    const lines = bundle.trimEnd().split('\n');
    const variants = {
      'the last event removed but the balance kept': [...lines.slice(0, -1)],
      'an event removed from the middle': [...lines.slice(0, 3), ...lines.slice(4)],
      'an event repeated': [...lines.slice(0, 3), lines[2], ...lines.slice(3)],
      'two events swapped': [lines[0], lines[2], lines[1], ...lines.slice(3)],
      'the header only': [lines[0]],
    };
    for (const [what, variant] of Object.entries(variants)) {
      const report = await verifyBundle(`${variant.join('\n')}\n`, { verifier: verifier() });
      expect(report.failures, what).to.not.have.length(0);
    }
  });

  it("fails when the operator's own rewrite is consistent: the hash chain holds, the log does not", async () => {
    // The last debit's amount changed, its hash and every later one recomputed, and the balance made to
    // match: all an operator can do without the log's cooperation.
    const lines = bundle.trimEnd().split('\n');
    const header = JSON.parse(lines[0]) as JsonBody;
    const entries = lines.slice(1).map((line) => JSON.parse(line) as JsonBody);
    const last = entries.findLastIndex((entry) => entry.event.type === 'CreditsDebited');
    entries[last].event.data.credits = 1;
    header.balance.credits_available += 6;
    let previous = entries[last - 1].event.hash;
    for (const entry of entries.slice(last)) {
      const { hash: _hash, ...content } = entry.event;
      entry.event.hash = chainHash(previous, content);
      previous = entry.event.hash;
    }
    const forged = [header, ...entries].map((value) => `${canonicalJson(value)}\n`).join('');
    const report = await verifyBundle(forged, { verifier: verifier() });
    expect(report.failures.filter((failure) => failure.startsWith('HASH'))).to.deep.equal([]);
    expect(report.failures.filter((failure) => failure.startsWith('INCLUSION'))).to.have.length(entries.length - last);
  });

  it('fails with a checkpoint signed by another key', async () => {
    const other = parseVerifierKey('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
    const report = await verifyBundle(bundle, { verifier: other });
    expect(report.failures).to.have.length(1);
    expect(report.failures[0]).to.match(/^SIGNATURE {2}the bundle's checkpoint does not verify/);
  });
});

describe('a large bundle, checked on two threads', function () {
  this.timeout(120_000);

  /** A bundle of one account's 3,000 events (past a line whose proof is written whole), built as the export does. */
  async function largeBundle(): Promise<{ text: string; verifierKey: string; dir: string }> {
    const store = new MemoryEventStore();
    const at = '2026-11-22T10:15:30.123Z';
    const events: NewEvent[] = [
      { type: 'AccountOpened', data: { account_id: 'acc_large', tier: 'scale', opened_at: at, billing: 'invoice' } },
      { type: 'CreditsGranted', data: { reference: 'grant_0', credits: 100_000, reason: 'allowance' } },
    ];
    for (let n = 1; n < 3_000; n += 1)
      events.push({
        type: 'CreditsDebited',
        data: {
          reference: `req_${n}`,
          mode: 'live',
          key_id: null,
          operation: 'generate.quick',
          sector: 'cards',
          tables: [{ name: 'transactions', rows: 100, credits: 3 }],
          credits: 3,
        },
      });
    // Other accounts' events between: the account's leaves are not side by side.
    for (let from = 0; from < events.length; from += 500) {
      await store.append(accountStream('acc_large'), events.slice(from, from + 500));
      await store.append('account-acc_other', [{ type: 'Noted', data: { from } }]);
    }
    const dir = await mkdtemp(join(tmpdir(), 'finsynth-large-bundle-'));
    const log = await startedLog(store, dir);
    const recorded = await store.readStream(accountStream('acc_large'));
    const balance = { credits_available: 100_000 - 2_999 * 3, credits_reserved: 0 };
    let text = '';
    for await (const lines of bundleLines(log, {
      accountId: 'acc_large',
      events: recorded,
      leafIndexes: await log.leafIndexes(recorded.map((event) => event.position)),
      checkpoint: (await log.latestCheckpoint())!,
      balance,
    }))
      text += lines;
    await log.stop();
    return { text, verifierKey: log.verifierKey, dir };
  }

  it('gives the verdict one thread gives, failures and their lines included', async () => {
    const { text, verifierKey, dir } = await largeBundle();
    try {
      const verifier = parseVerifierKey(verifierKey);
      const lines = text.split('\n');
      expect(lines.filter((line) => line.endsWith(',"shared":0}')).length).to.be.at.least(3);
      const one = await verifyBundle(text, { verifier, parallelFrom: Infinity });
      const two = await verifyBundle(text, { verifier, parallelFrom: 1 });
      expect(one.failures).to.deep.equal([]);
      expect(two).to.deep.equal(one);
      // One debit changed in each half, and a line removed in the second.
      lines[700] = lines[700].replace('"credits":3,', '"credits":4,');
      lines[2500] = lines[2500].replace('"credits":3,', '"credits":2,');
      lines.splice(2800, 1);
      const changed = lines.join('\n');
      const oneChanged = await verifyBundle(changed, { verifier, parallelFrom: Infinity });
      const twoChanged = await verifyBundle(changed, { verifier, parallelFrom: 1 });
      expect(twoChanged).to.deep.equal(oneChanged);
      // The removed line breaks the chain, and the proofs that shared the end of its proof no longer lead to the root.
      const kinds = oneChanged.failures.map((failure) => /^(\w+) +(line \d+)?/.exec(failure)!.slice(1).join(' '));
      expect(kinds).to.deep.equal([
        'HASH line 701',
        'HASH line 2501',
        'CHAIN line 2801',
        'INCLUSION line 2801',
        'INCLUSION line 2802',
        'INCLUSION line 2803',
        'BALANCE ',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('checking many inclusion proofs in one tree', () => {
  const tree = (size: number) => {
    const leaves = Array.from({ length: size }, (_, i) => leafHash(Buffer.from([i % 256, Math.floor(i / 256)])));
    const { tree: built, nodes } = appendLeaves(EMPTY_TREE, leaves);
    const stored = new Map(nodes.map((node) => [nodeKey(node), node.hash]));
    const proof = (index: number) =>
      proofHashes(inclusionRanges(index, size), (id) => stored.get(nodeKey(id))!).map((hash) =>
        hash.toString('base64'),
      );
    return { leaves, root: compactRoot(built), proof };
  };
  const flip = (text: string): string => {
    const bytes = Buffer.from(text, 'base64');
    bytes[bytes.length - 1] ^= 0x01;
    return bytes.toString('base64');
  };

  it('accepts every true proof, and refuses every proof with one element changed, added or dropped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.constantFrom('flip', 'drop', 'add', 'swap leaf'),
        (size, picks, which, how) => {
          const { leaves, root, proof } = tree(size);
          const indexes = [...new Set(picks.map((pick) => pick % size))].sort((a, b) => a - b);
          const checker = new InclusionChecker(size, root);
          const spoiled = indexes[which % indexes.length];
          for (const index of indexes) {
            let elements = proof(index);
            let leaf: Hash = leaves[index];
            if (index === spoiled) {
              if (how === 'flip' && elements.length > 0)
                elements[which % elements.length] = flip(elements[which % elements.length]);
              else if (how === 'drop' && elements.length > 0) elements = elements.slice(0, -1);
              else if (how === 'add') elements = [...elements, root.toString('base64')];
              else leaf = leafHash(Buffer.from('another leaf'));
              expect(checker.check(index, leaf, elements), `${how} at leaf ${index} of ${size}`).to.equal(false);
            } else expect(checker.check(index, leaf, elements), `leaf ${index} of ${size}`).to.equal(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
