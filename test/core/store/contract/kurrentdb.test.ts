import { jsonEvent } from '@kurrent/kurrentdb-client';
import { KurrentDbEventStore, toStoredMetadata } from '../../../../core/store/kurrentdb-store.js';
import { requireKurrentDb } from '../../../support/external-services.js';
import { eventStoreContract } from './event-store-contract.js';

let url: string;
let store: KurrentDbEventStore | undefined;

eventStoreContract('kurrentdb', {
  async open(context) {
    url = await requireKurrentDb(context);
    store = KurrentDbEventStore.open(url);
    return store;
  },
  async openWriter() {
    return KurrentDbEventStore.open(url);
  },
  /**
   * KurrentDB's log is append-only: a stored event cannot be edited in place. What someone with write
   * access can do is append a forgery: here the event at `revision` again, with other data and a copied
   * hash that does not chain. Verification must name the forgery's revision.
   */
  async tamper(stream, revision, data) {
    const [original] = await store!.readStream(stream, { fromRevision: revision, maxCount: 1 });
    const result = await store!.client.appendToStream(
      stream,
      jsonEvent({
        type: original.type,
        data: data as Record<string, unknown>,
        metadata: toStoredMetadata(original.metadata, original.version, original.recorded_at, original.hash),
      }),
    );
    return Number(result.nextExpectedRevision);
  },
  async close() {
    await store?.close();
  },
});
