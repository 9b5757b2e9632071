import type { SchedulerCheckpoints } from '../../core/webhooks/ports.js';
import type { SnapshotStore } from '../runner/snapshot-store.js';

/** Bump when the scheduler's saved state changes shape: a state of another version is discarded, and rebuilt. */
const VERSION = 1;
const NAME = 'webhook-scheduler';

/**
 * The webhook scheduler's state and position, kept as a projection's are (one record in the store's own
 * database). Rebuilding it from the first event is always safe: the deliveries it decides again are
 * already scheduled, and scheduling them again appends nothing.
 */
export function schedulerCheckpoints(snapshots: SnapshotStore): SchedulerCheckpoints {
  return {
    async load() {
      const snapshot = await snapshots.load(NAME);
      return snapshot && snapshot.version === VERSION
        ? { position: snapshot.position, state: snapshot.state }
        : undefined;
    },
    save: (position, state) => snapshots.save([{ name: NAME, version: VERSION, position, state }]),
  };
}
