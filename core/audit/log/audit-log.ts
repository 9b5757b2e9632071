import type { EventStore } from '../../store/event-store.js';
import { signCheckpoint, type SignedCheckpoint } from './checkpoint.js';
import type { Hash } from './hashes.js';
import { TreeIntegrator } from './integrator.js';
import type { NoteSigner } from './note.js';
import { consistencyRanges, inclusionRanges, proofHashes, proofNodeIds } from './proofs.js';
import { loadAuditSigningKey } from './signing-key.js';
import { frontierIds, nodeKey, type LeafRange } from './subtrees.js';
import { compactRoot } from './compact-tree.js';
import type { TreeHead, TreeStorage } from './tree-storage.js';
import { verifyConsistency } from './verify.js';

export interface AuditLogOptions {
  store: EventStore;
  storage: TreeStorage;
  /** The signing key file (FINSYNTH_AUDIT_KEY), created at the first start. */
  keyFile: string;
  /** FINSYNTH_AUDIT_ORIGIN; when unset, the key file's name, or this host's for a new key. */
  origin: string | undefined;
  /** A new checkpoint is signed at most this often, while the tree grows. */
  checkpointIntervalMs: number;
  /** How often the background work integrates new events (it also wakes for a checkpoint that is due). */
  integrateIntervalMs?: number;
  onError: (error: unknown) => void;
}

/**
 * One instance's transparency log of the store: the Merkle tree over every event in global order, kept up
 * to date by the integrator, and the signed checkpoints of it. When started (servers), it integrates
 * continuously and signs a checkpoint at most every `checkpointIntervalMs` while the tree grows.
 */
export class AuditLog {
  readonly integrator: TreeIntegrator;
  private signer: NoteSigner | null = null;
  private lastSignedAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private working: Promise<void> | undefined;
  private stopped = false;
  private keyCreated = false;

  constructor(private readonly options: AuditLogOptions) {
    this.integrator = new TreeIntegrator(options.store, options.storage);
  }

  /**
   * Reads (or creates) the signing key, integrates what the store holds, signs a first checkpoint if there is
   * none or the tree grew, then goes on in the background. `keyCreated`: this start made the key file.
   */
  async start(): Promise<{ keyCreated: boolean }> {
    const { signer, created } = await loadAuditSigningKey(this.options.keyFile, this.options.origin);
    this.signer = signer;
    this.keyCreated = created;
    this.stopped = false;
    await this.integrate();
    await this.signCheckpoint();
    this.schedule();
    return { keyCreated: created };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.working;
  }

  /** The verifier key to publish and give auditors: `<origin>+<key ID>+base64(0x01 ‖ Ed25519 public key)`. */
  get verifierKey(): string {
    return this.started().verifierKey;
  }

  get origin(): string {
    return this.started().name;
  }

  /** True once, after the start that created the key file: the verifier key is then printed for the operator. */
  takeKeyCreated(): boolean {
    const created = this.keyCreated;
    this.keyCreated = false;
    return created;
  }

  get checkpointIntervalMs(): number {
    return this.options.checkpointIntervalMs;
  }

  head(): Promise<TreeHead> {
    return this.options.storage.head();
  }

  integrate(): Promise<TreeHead> {
    return this.integrator.integrate();
  }

  latestCheckpoint(): Promise<SignedCheckpoint | null> {
    return this.options.storage.latestCheckpoint();
  }

  leafIndexes(positions: readonly number[]): Promise<Map<number, number>> {
    return this.options.storage.leafIndexes(positions);
  }

  /**
   * Signs a checkpoint of the tree as it stands if it grew since the latest one, and if it extends that one:
   * a log never signs two checkpoints that contradict each other (C2SP tlog-checkpoint), so a tree that no
   * longer does is reported, not signed. Returns the latest checkpoint.
   */
  async signCheckpoint(): Promise<SignedCheckpoint> {
    const signer = this.started();
    const head = await this.options.storage.head();
    const latest = await this.options.storage.latestCheckpoint();
    if (latest && latest.size >= head.size) {
      if (latest.size === head.size && !latest.root.equals(head.root))
        throw new Error(
          `the tree of ${head.size} leaves no longer has the root of its signed checkpoint: ` +
            'its events were changed; `finsynth audit rebuild-log --check` names them',
        );
      return latest;
    }
    if (latest && latest.size > 0) {
      const proof = await this.consistencyProof(latest.size, head.size);
      if (!verifyConsistency(latest.size, head.size, proof, latest.root, head.root))
        throw new Error(
          `refusing to sign: the tree of ${head.size} leaves does not extend the signed checkpoint of ` +
            `${latest.size}; its events were changed; \`finsynth audit rebuild-log --check\` names them`,
        );
    }
    const checkpoint = signCheckpoint({ origin: signer.name, size: head.size, root: head.root }, signer);
    await this.options.storage.saveCheckpoint(checkpoint);
    this.lastSignedAt = Date.now();
    return (await this.options.storage.latestCheckpoint()) ?? checkpoint;
  }

  /**
   * The latest checkpoint once it covers leaf `index`: the tree is integrated now, and a checkpoint signed as
   * soon as the interval allows. Null if none covers it within `timeoutMs`.
   */
  async checkpointCovering(index: number, timeoutMs: number): Promise<SignedCheckpoint | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const latest = await this.latestCheckpoint();
      if (latest && latest.size > index) return latest;
      await this.integrate();
      if (Date.now() - this.lastSignedAt >= this.options.checkpointIntervalMs) {
        const signed = await this.signCheckpoint();
        if (signed.size > index) return signed;
      }
      const wait = Math.min(this.lastSignedAt + this.options.checkpointIntervalMs - Date.now(), deadline - Date.now());
      if (Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.min(wait, 250))));
    }
  }

  /** MTH of the tree's first `size` leaves (≤ the tree's size): its frontier folded, O(log n) stored subtrees. */
  async rootAt(size: number): Promise<Hash> {
    const ids = frontierIds(size);
    const nodes = await this.options.storage.nodes(ids);
    return compactRoot({ size, frontier: ids.map((id) => nodes.get(nodeKey(id))!) });
  }

  /** The RFC 9162 consistency proof from the tree of `from` leaves to the tree of `to` (≤ the tree's size). */
  async consistencyProof(from: number, to: number): Promise<Hash[]> {
    return this.proof(consistencyRanges(from, to));
  }

  /** The RFC 9162 inclusion proof of leaf `index` in the tree of `size` leaves (≤ the tree's size). */
  async inclusionProof(index: number, size: number): Promise<Hash[]> {
    return this.proof(inclusionRanges(index, size));
  }

  /** Inclusion proofs of many leaves in one tree, reading each stored subtree they share once. */
  async inclusionProofs(indexes: readonly number[], size: number): Promise<Hash[][]> {
    const ranges = indexes.map((index) => inclusionRanges(index, size));
    const nodes = await this.options.storage.nodes(proofNodeIds(ranges.flat()));
    return ranges.map((each) => proofHashes(each, (id) => nodes.get(nodeKey(id))!));
  }

  private async proof(ranges: LeafRange[]): Promise<Hash[]> {
    const nodes = await this.options.storage.nodes(proofNodeIds(ranges));
    return proofHashes(ranges, (id) => nodes.get(nodeKey(id))!);
  }

  private started(): NoteSigner {
    if (!this.signer) throw new Error('the audit log has not been started: it has no signing key');
    return this.signer;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.working = this.work().finally(() => this.schedule());
    }, this.options.integrateIntervalMs ?? 200);
  }

  private async work(): Promise<void> {
    try {
      await this.integrate();
      if (Date.now() - this.lastSignedAt >= this.options.checkpointIntervalMs) await this.signCheckpoint();
    } catch (error) {
      this.options.onError(error);
    }
  }
}
