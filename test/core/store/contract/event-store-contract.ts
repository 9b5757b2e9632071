import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { NewEvent, RecordedEvent } from '../../../../core/events/envelope.js';
import { EventRegistry } from '../../../../core/events/registry.js';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type ExpectedRevision,
} from '../../../../core/store/event-store.js';

/**
 * What one adapter needs to run the contract. `open` is called in a `before` hook (it may skip the suite
 * when the adapter's server is not configured) and gives the store under test.
 */
export interface StoreFixture {
  open(context: Mocha.Context): Promise<EventStore>;
  /**
   * Another writer on the same store: another connection, file handle or pool. Postgres gives one whose
   * transactions take their id early and commit late, to open the in-flight gap that read-all must not skip.
   */
  openWriter(): Promise<EventStore>;
  /**
   * Changes the stored data of one event behind the store's back, as someone with database access could,
   * and returns the revision that verification must name (the one changed, or for an append-only log the forgery).
   */
  tamper(stream: string, revision: number, data: unknown): Promise<number>;
  close(): Promise<void>;
}

const event = (n: number, extra: Record<string, unknown> = {}): NewEvent => ({
  type: 'Counted',
  data: { n, ...extra },
});
const newStream = (prefix: string): string => `${prefix}-${randomUUID()}`;

async function conflictOf(append: Promise<unknown>): Promise<WrongExpectedRevisionError> {
  const error = await append.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the append should have been refused').to.be.instanceOf(WrongExpectedRevisionError);
  return error as WrongExpectedRevisionError;
}

/** Polls until `done` holds; the bound only keeps a broken adapter from hanging the run. */
async function eventually(done: () => boolean, what: string, boundMs = 15000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function eventStoreContract(adapter: string, fixture: StoreFixture): void {
  describe(`EventStore contract: ${adapter}`, function () {
    let store: EventStore;

    before(async function () {
      store = await fixture.open(this);
    });

    after(async () => {
      await fixture.close();
    });

    describe('expected revision', () => {
      const cases: { expected: ExpectedRevision; onNew: boolean; onExisting: boolean }[] = [
        { expected: 'no_stream', onNew: true, onExisting: false },
        { expected: 'any', onNew: true, onExisting: true },
        { expected: 'exists', onNew: false, onExisting: true },
        { expected: 0, onNew: false, onExisting: false },
        { expected: 1, onNew: false, onExisting: true },
      ];
      for (const { expected, onNew, onExisting } of cases) {
        it(`${String(expected)} on a new stream ${onNew ? 'appends' : 'is refused and writes nothing'}`, async () => {
          const stream = newStream('new');
          const append = store.append(stream, [event(1)], { expectedRevision: expected });
          if (onNew) {
            expect(await append).to.include({ nextRevision: 0 });
          } else {
            const conflict = await conflictOf(append);
            expect(conflict).to.include({ stream, expected, actual: -1 });
          }
          expect(await store.readStream(stream)).to.have.length(onNew ? 1 : 0);
        });

        it(`${String(expected)} on a stream at revision 1 ${onExisting ? 'appends' : 'is refused and writes nothing'}`, async () => {
          const stream = newStream('existing');
          await store.append(stream, [event(1), event(2)], { expectedRevision: 'no_stream' });
          const append = store.append(stream, [event(3), event(4)], { expectedRevision: expected });
          if (onExisting) {
            expect(await append).to.include({ nextRevision: 3 });
          } else {
            const conflict = await conflictOf(append);
            expect(conflict).to.include({ stream, expected, actual: 1 });
          }
          expect((await store.readStream(stream)).map((e) => e.data)).to.deep.equal(
            onExisting ? [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }] : [{ n: 1 }, { n: 2 }],
          );
        });
      }
    });

    describe('append', () => {
      it('records the envelope: ids, consecutive revisions, increasing positions, metadata, version, time and hash', async () => {
        const stream = newStream('envelope');
        const id = randomUUID();
        const metadata = {
          request_id: 'req_1',
          correlation_id: 'cor_1',
          causation_id: 'cau_1',
          key_id: 'key_1',
          mode: 'live' as const,
        };
        const result = await store.append(stream, [{ ...event(1), id, metadata, version: 2 }, event(2), event(3)], {
          expectedRevision: 'no_stream',
        });
        const events = await store.readStream(stream);
        expect(events.map((e) => e.revision)).to.deep.equal([0, 1, 2]);
        expect(events[0]).to.include({ id, stream, type: 'Counted', version: 2 });
        expect(events[0].metadata).to.deep.equal(metadata);
        expect(events[1].version).to.equal(1);
        expect(events[1].metadata).to.deep.equal({});
        expect(new Date(events[0].recorded_at).toISOString()).to.equal(events[0].recorded_at);
        expect(events[0].hash).to.match(/^[0-9a-f]{64}$/);
        expect(events[1].position).to.be.greaterThan(events[0].position);
        expect(events[2].position).to.be.greaterThan(events[1].position);
        expect(result).to.deep.equal({ nextRevision: 2, position: events[2].position });
        expect(await store.headPosition()).to.be.at.least(result.position);
      });

      it('writes the events of one append together: concurrent batches on one stream never interleave', async () => {
        const stream = newStream('batches');
        await Promise.all(
          Array.from({ length: 8 }, (_, writer) =>
            store.append(
              stream,
              Array.from({ length: 5 }, (_, i) => event(i, { writer })),
              { expectedRevision: 'any' },
            ),
          ),
        );
        const events = await store.readStream(stream);
        expect(events.map((e) => e.revision)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i));
        for (let batch = 0; batch < 8; batch += 1) {
          const slice = events.slice(batch * 5, batch * 5 + 5).map((e) => e.data as { n: number; writer: number });
          expect(new Set(slice.map((d) => d.writer)).size, `batch ${batch} is contiguous`).to.equal(1);
          expect(slice.map((d) => d.n)).to.deep.equal([0, 1, 2, 3, 4]);
        }
        expect((await store.verifyStream(stream)).intact).to.equal(true);
      });

      it('an append whose data cannot be serialized is refused, writes nothing, and a concurrent append goes through', async () => {
        const bad = newStream('unserializable');
        const good = newStream('concurrent');
        const [refused, accepted] = await Promise.allSettled([
          store.append(bad, [{ type: 'Counted', data: { n: 1n } }]),
          store.append(good, [event(1)]),
        ]);
        expect(refused.status).to.equal('rejected');
        expect(accepted.status).to.equal('fulfilled');
        expect(await store.readStream(bad)).to.deep.equal([]);
        expect(await store.readStream(good)).to.have.length(1);
      });

      it('16 appenders racing on one stream: exactly one wins each revision, no gap, no duplicate', async () => {
        const stream = newStream('race');
        const firstRound = await Promise.allSettled(
          Array.from({ length: 16 }, (_, writer) =>
            store.append(stream, [event(0, { writer })], { expectedRevision: 'no_stream' }),
          ),
        );
        expect(firstRound.filter((r) => r.status === 'fulfilled')).to.have.length(1);
        for (const lost of firstRound.filter((r) => r.status === 'rejected')) {
          expect((lost as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedRevisionError);
        }

        const wins = new Map<number, number>();
        await Promise.all(
          Array.from({ length: 16 }, async (_, writer) => {
            for (let won = 0; won < 3;) {
              const [head] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
              try {
                const result = await store.append(stream, [event(won, { writer })], {
                  expectedRevision: head.revision,
                });
                expect(wins.has(result.nextRevision), `revision ${result.nextRevision} won twice`).to.equal(false);
                wins.set(result.nextRevision, writer);
                won += 1;
              } catch (error) {
                if (!(error instanceof WrongExpectedRevisionError)) throw error;
              }
            }
          }),
        );
        const events = await store.readStream(stream);
        expect(events.map((e) => e.revision)).to.deep.equal(Array.from({ length: 49 }, (_, i) => i));
        expect(new Set(events.map((e) => e.id)).size).to.equal(49);
        for (const [revision, writer] of wins)
          expect((events[revision].data as { writer: number }).writer).to.equal(writer);
        expect((await store.verifyStream(stream)).intact).to.equal(true);
      });
    });

    describe('read stream', () => {
      let stream: string;
      before(async () => {
        stream = newStream('read');
        await store.append(
          stream,
          Array.from({ length: 10 }, (_, i) => event(i)),
        );
      });

      const revisions = (events: RecordedEvent[]) => events.map((e) => e.revision);

      it('reads forwards from a revision, at most maxCount', async () => {
        expect(revisions(await store.readStream(stream))).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(revisions(await store.readStream(stream, { fromRevision: 7 }))).to.deep.equal([7, 8, 9]);
        expect(revisions(await store.readStream(stream, { fromRevision: 2, maxCount: 3 }))).to.deep.equal([2, 3, 4]);
        expect(await store.readStream(stream, { fromRevision: 10 })).to.deep.equal([]);
      });

      it('reads backwards from the end or from a revision, at most maxCount', async () => {
        expect(revisions(await store.readStream(stream, { direction: 'backwards', maxCount: 3 }))).to.deep.equal([
          9, 8, 7,
        ]);
        expect(revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 4 }))).to.deep.equal([
          4, 3, 2, 1, 0,
        ]);
        expect(
          revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 4, maxCount: 2 })),
        ).to.deep.equal([4, 3]);
      });

      it('reads a stream that does not exist as empty', async () => {
        expect(await store.readStream(newStream('none'))).to.deep.equal([]);
        expect(await store.readStream(newStream('none'), { direction: 'backwards' })).to.deep.equal([]);
      });
    });

    describe('read all', () => {
      it('pages from a global position, in position order', async () => {
        const stream = newStream('paging');
        const before = await store.headPosition();
        await store.append(
          stream,
          Array.from({ length: 7 }, (_, i) => event(i)),
        );
        const page1 = await store.readAll({ after: before, maxCount: 4 });
        const page2 = await store.readAll({ after: page1.at(-1)!.position, maxCount: 4 });
        const mine = [...page1, ...page2].filter((e) => e.stream === stream);
        expect(mine.map((e) => e.revision)).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
        expect(page1).to.have.length(4);
        expect(page2.every((e) => e.position > page1[3].position)).to.equal(true);
      });

      it('never misses or reorders an event while 8 writers commit concurrently', async () => {
        const from = await store.headPosition();
        const writers = await Promise.all(Array.from({ length: 8 }, () => fixture.openWriter()));
        const appendedIds = new Set<string>();
        const seen: RecordedEvent[] = [];
        let writing = true;

        const reader = (async () => {
          let checkpoint = from;
          const readOnce = async () => {
            for (const e of await store.readAll({ after: checkpoint, maxCount: 50 })) {
              expect(e.position, 'positions increase').to.be.greaterThan(checkpoint);
              seen.push(e);
              checkpoint = e.position;
            }
          };
          while (writing) await readOnce();
          await readOnce();
          await readOnce();
        })();

        await Promise.all(
          writers.map(async (writer, w) => {
            const stream = newStream(`writer${w}`);
            for (let i = 0; i < 25; i += 1) {
              const batch = Array.from({ length: 1 + (i % 3) }, (_, k) => ({ ...event(i, { k }), id: randomUUID() }));
              await writer.append(stream, batch, { expectedRevision: 'any' });
              for (const e of batch) appendedIds.add(e.id!);
            }
          }),
        );
        writing = false;
        await reader;
        for (const writer of writers) if (writer !== store) await writer.close();

        const mine = seen.filter((e) => appendedIds.has(e.id));
        expect(mine.length, 'every appended event was read, once').to.equal(appendedIds.size);
        expect(new Set(mine.map((e) => e.id)).size).to.equal(appendedIds.size);
        const byStream = new Map<string, number[]>();
        for (const e of mine) byStream.set(e.stream, [...(byStream.get(e.stream) ?? []), e.revision]);
        expect(byStream.size).to.equal(8);
        for (const revisions of byStream.values()) expect(revisions).to.deep.equal(revisions.map((_, i) => i));
      });
    });

    describe('subscription', () => {
      it('resumed from a checkpoint, delivers every later event exactly once, in order, then live', async () => {
        const stream = newStream('subscribed');
        const start = await store.headPosition();
        await store.append(
          stream,
          Array.from({ length: 30 }, (_, i) => event(i)),
        );

        const first: RecordedEvent[] = [];
        const firstRun = store.subscribeToAll(
          (e) => {
            if (e.stream === stream && first.length < 12) first.push(e);
          },
          { after: start },
        );
        await eventually(() => first.length === 12, 'the first 12 events');
        await firstRun.close();
        const checkpoint = first.at(-1)!.position;

        await store.append(
          stream,
          Array.from({ length: 10 }, (_, i) => event(30 + i)),
        );
        const resumed: RecordedEvent[] = [];
        const errors: unknown[] = [];
        const secondRun = store.subscribeToAll(
          (e) => {
            if (e.stream === stream) resumed.push(e);
          },
          { after: checkpoint, onError: (error) => errors.push(error) },
        );
        const writer = await fixture.openWriter();
        for (let i = 40; i < 50; i += 1) await writer.append(stream, [event(i)]);
        await eventually(() => resumed.length >= 38, 'the events after the checkpoint');
        await new Promise((resolve) => setTimeout(resolve, 150));
        await secondRun.close();
        if (writer !== store) await writer.close();

        expect(errors).to.deep.equal([]);
        expect(first.map((e) => e.revision)).to.deep.equal(Array.from({ length: 12 }, (_, i) => i));
        expect(resumed.map((e) => e.revision)).to.deep.equal(Array.from({ length: 38 }, (_, i) => 12 + i));
        expect(resumed.map((e) => (e.data as { n: number }).n)).to.deep.equal(
          Array.from({ length: 38 }, (_, i) => 12 + i),
        );
      });

      it('stops delivering once closed', async () => {
        const stream = newStream('closed');
        const delivered: RecordedEvent[] = [];
        const subscription = store.subscribeToAll(
          (e) => {
            if (e.stream === stream) delivered.push(e);
          },
          { after: await store.headPosition() },
        );
        await subscription.close();
        await store.append(stream, [event(1)]);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(delivered).to.deep.equal([]);
      });
    });

    describe('tamper evidence', () => {
      it('verifyStream names the stream and revision whose stored data was changed in the database', async () => {
        const stream = newStream('ledger');
        const untouched = newStream('ledger');
        await store.append(stream, [event(100), event(-40), event(-10)]);
        await store.append(untouched, [event(1)]);
        expect(await store.verifyStream(stream)).to.deep.include({ intact: true, stream, events: 3 });

        const tampered = await fixture.tamper(stream, 1, { n: -4 });

        expect(await store.verifyStream(stream)).to.deep.include({ intact: false, stream, revision: tampered });
        expect(await store.verifyStream(untouched)).to.deep.include({ intact: true, stream: untouched });
      });
    });

    describe('versioned event types', () => {
      it('stores the version written and is upcast on read through the registry, the stored data unchanged', async () => {
        const registry = new EventRegistry([
          {
            type: 'PriceSet',
            version: 2,
            schema: { type: 'object', required: ['amount_minor', 'currency'] },
            upcasters: {
              1: (data) => ({ amount_minor: Math.round((data as { amount: number }).amount * 100), currency: 'EUR' }),
            },
          },
        ]);
        const stream = newStream('prices');
        await store.append(stream, [
          { type: 'PriceSet', version: 1, data: { amount: 12.5 } },
          { type: 'PriceSet', version: 2, data: { amount_minor: 99, currency: 'GBP' } },
        ]);
        const stored = await store.readStream(stream);
        expect(stored.map((e) => e.version)).to.deep.equal([1, 2]);
        expect(stored.map((e) => registry.upcast(e).data)).to.deep.equal([
          { amount_minor: 1250, currency: 'EUR' },
          { amount_minor: 99, currency: 'GBP' },
        ]);
        expect((await store.readStream(stream))[0]).to.deep.include({ version: 1, data: { amount: 12.5 } });
        expect((await store.verifyStream(stream)).intact).to.equal(true);
      });
    });
  });
}
