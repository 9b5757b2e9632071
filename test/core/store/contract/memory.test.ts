import { MemoryEventStore } from '../../../../core/store/memory-store.js';
import { eventStoreContract } from './event-store-contract.js';

let store: MemoryEventStore;

eventStoreContract('memory', {
  async open() {
    store = new MemoryEventStore();
    return store;
  },
  async openWriter() {
    return store;
  },
  async tamper(stream, revision, data) {
    store.tamper(stream, revision, data);
    return revision;
  },
  async close() {
    await store.close();
  },
});
