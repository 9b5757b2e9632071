/**
 * A projection's state and the global position it has applied, kept as one record: written together,
 * they can never disagree, so a restart resumes exactly where the saved state stops.
 */
export interface ProjectionSnapshot {
  name: string;
  /** The projection's version when the state was written; a snapshot of another version is discarded. */
  version: number;
  position: number;
  /** The projection's toJSON(state). */
  state: unknown;
}

export interface SnapshotStore {
  load(name: string): Promise<ProjectionSnapshot | undefined>;
  /** Writes every snapshot in one transaction, replacing the previous snapshot of each name. */
  save(snapshots: readonly ProjectionSnapshot[]): Promise<void>;
}

/** For the memory store: snapshots live exactly as long as the events they were built from. */
export class MemorySnapshotStore implements SnapshotStore {
  private readonly snapshots = new Map<string, string>();

  async load(name: string): Promise<ProjectionSnapshot | undefined> {
    const saved = this.snapshots.get(name);
    return saved === undefined ? undefined : (JSON.parse(saved) as ProjectionSnapshot);
  }

  async save(snapshots: readonly ProjectionSnapshot[]): Promise<void> {
    // Serialized, as a database would: a snapshot must not share objects with the live state.
    for (const snapshot of snapshots) this.snapshots.set(snapshot.name, JSON.stringify(snapshot));
  }
}
