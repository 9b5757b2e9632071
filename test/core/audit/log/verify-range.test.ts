import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleLines } from '../../../../core/audit/log/bundle-export.js';
import { startedLog } from './started-log.js';
import { verifyRange, verifyRangePlain, type RangeTask } from '../../../../core/audit/log/verify-range.js';
import { EventLineParts, scanEventLine } from '../../../../core/audit/log/event-line-scan.js';
import { accountStream } from '../../../../core/accounts/account.js';
import { canonicalJson } from '../../../../core/events/canonical-json.js';
import { GENESIS_HASH, type NewEvent } from '../../../../core/events/envelope.js';
import { chainHash } from '../../../../core/events/hash-chain.js';
import { MemoryEventStore } from '../../../../core/store/memory-store.js';

/** What a range check comes to, or the error it throws: the scanning path must come to the same. */
function outcome(check: (task: RangeTask) => unknown, task: RangeTask): unknown {
  try {
    return check(task);
  } catch (error) {
    return { threw: String(error) };
  }
}

const sameVerdicts = (task: RangeTask) =>
  expect(outcome(verifyRange, task), 'the scanning path').to.deep.equal(outcome(verifyRangePlain, task));

const creditTypes = ['CreditsGranted', 'CreditsDebited', 'CreditsReserved', 'CreditsSettled', 'CreditsReleased'];

describe('an event line read by scanning its bytes', function () {
  this.timeout(120_000);
  const accountId = 'acc_scan';
  let body: Buffer;
  let task: (lines: Uint8Array) => RangeTask;
  let dir: string;

  before(async () => {
    // Every kind of line the balance rule reads, test mode, an event of an older version (upcast) and data the rule
    // cannot read as credits, exported as the service does.
    const events: NewEvent[] = [
      { type: 'AccountOpened', data: { account_id: accountId, tier: 'scale', opened_at: '2026-11-22T10:15:30.123Z' } },
      { type: 'CreditsGranted', data: { reference: 'g', credits: 1_000, reason: 'allowance' } },
      { type: 'CreditsDebited', data: { reference: 'd', mode: 'test', credits: 5 }, metadata: { mode: 'test' } },
      { type: 'CreditsDebited', data: { reference: 'd2', mode: 'live', credits: 7, tables: [{ rows: 1 }] } },
      { type: 'CreditsReserved', data: { reference: 'r', mode: 'live', credits: 40 } },
      { type: 'CreditsSettled', data: { reference: 'r', mode: 'live', credits: 30, released: 10 } },
      { type: 'CreditsSettled', data: { reference: 'r', mode: 'live', credits: 30 } },
      { type: 'CreditsGranted', data: { reference: 'é', credits: 2, reason: 'unicode \u2028 and "quotes"' } },
      { type: 'CreditsGranted', data: { credits: 2.5, reason: 'a fraction' } },
      { type: 'CreditsGranted', data: ['not', 'an', 'object'] },
      { type: 'SubscriptionRenewed', version: 1, data: { period: 1, tier: 'scale', credits: 10 } },
      { type: 'Noted', data: { credits: -3 } },
    ];
    const store = new MemoryEventStore();
    for (let i = 0; i < 4; i += 1) await store.append(accountStream(accountId), events);
    dir = await mkdtemp(join(tmpdir(), 'finsynth-scan-'));
    const log = await startedLog(store, dir);
    const recorded = await store.readStream(accountStream(accountId));
    const checkpoint = (await log.latestCheckpoint())!;
    let text = '';
    for await (const lines of bundleLines(log, {
      accountId,
      events: recorded,
      leafIndexes: await log.leafIndexes(recorded.map((event) => event.position)),
      checkpoint,
      balance: { credits_available: 0, credits_reserved: 0 },
    }))
      text += lines;
    await log.stop();
    const bytes = Buffer.from(text, 'utf8');
    body = bytes.subarray(bytes.indexOf(0x0a) + 1);
    task = (lines) => ({
      lines,
      firstLine: 2,
      start: { previousHash: GENESIS_HASH, revision: 0, previousLeaf: -1, previousProof: [] },
      stream: accountStream(accountId),
      accountId,
      treeSize: checkpoint.size,
      treeRoot: checkpoint.root.toString('base64'),
    });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads most lines of an export by their bytes, and holds them as JSON.parse does', () => {
    const parts = new EventLineParts();
    const lines = body.toString('utf8').trimEnd().split('\n');
    const scanned = lines.filter((line) => scanEventLine(Buffer.from(line), 0, line.length, parts));
    // The line with a non-ASCII string is left to JSON.parse; all others are in the export's spelling.
    expect(scanned).to.have.length(lines.length - 4);
    const result = verifyRange(task(body));
    expect(result.failures).to.deep.equal([]);
    expect(result).to.deep.equal(verifyRangePlain(task(body)));
  });

  it('gives the verdict JSON.parse gives with any bytes changed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x20, 0x5c, 0x22))), {
          minLength: 1,
          maxLength: 3,
        }),
        (changes) => {
          const changed = Buffer.from(body);
          for (const [at, byte] of changes) changed[at % changed.length] = byte;
          sameVerdicts(task(changed));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('gives the verdict JSON.parse gives with a line spelled otherwise, or replaced by other JSON', () => {
    const lines = body.toString('utf8').trimEnd().split('\n');
    const respelled = (line: string, how: string): string => {
      const value = JSON.parse(line) as { event: Record<string, unknown> };
      if (how === 'spaced') return JSON.stringify(value, null, 1).replaceAll('\n', '');
      if (how === 'unsorted') return JSON.stringify({ ...value, event: { hash: value.event.hash, ...value.event } });
      if (how === 'escaped') return line.replace('"type":"C', '"type":"\\u0043');
      return line.replace(/"credits":(\d+)/, '"credits":$1.0');
    };
    fc.assert(
      fc.property(
        fc.nat({ max: lines.length - 1 }),
        fc.oneof(
          fc.constantFrom('spaced', 'unsorted', 'escaped', 'fraction').map((how) => ({ how, value: undefined })),
          fc.jsonValue({ maxDepth: 3 }).map((value) => ({ how: 'other', value })),
        ),
        (at, { how, value }) => {
          const changed = [...lines];
          changed[at] = how === 'other' ? JSON.stringify(value) : respelled(lines[at], how);
          sameVerdicts(task(Buffer.from(`${changed.join('\n')}\n`, 'utf8')));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives the verdict JSON.parse gives on events of any data whose hashes chain', () => {
    const data = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          credits: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
          released: fc.oneof(fc.integer(), fc.constant(-0), fc.constant(1e300)),
          mode: fc.constantFrom('test', 'live', 'tes', 1, null),
          reference: fc.string(),
        },
        { requiredKeys: [] },
      ),
    );
    const event = fc.record({
      type: fc.oneof(fc.constantFrom(...creditTypes, 'SubscriptionRenewed', 'AccountOpened'), fc.string()),
      version: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 3 }), fc.integer()),
      data,
      metadata: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })),
      id: fc.string(),
      recorded_at: fc.string(),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(event, fc.nat({ max: 3 }), fc.array(fc.base64String({ minLength: 44, maxLength: 44 }))), {
          minLength: 1,
          maxLength: 12,
        }),
        (drawn) => {
          let previous = GENESIS_HASH;
          let leaf = 0;
          const text = drawn
            .map(([each, gap, proof], revision) => {
              const content = { ...each, revision, stream: accountStream(accountId) };
              const hash = chainHash(previous, content);
              previous = hash;
              leaf += gap;
              return `${canonicalJson({ event: { ...content, hash }, leaf_index: leaf, proof, shared: gap % 2 })}\n`;
            })
            .join('');
          sameVerdicts(task(Buffer.from(text, 'utf8')));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
