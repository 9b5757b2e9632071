import type { RecordedEvent } from '../../events/envelope.js';
import { canonicalJson } from '../../events/canonical-json.js';

/**
 * The export bundle (docs/audit.md): JSON Lines, each line the canonical JSON (RFC 8785) of its value. The
 * first line is the header; every other line is one event of the account's stream, in revision order, with
 * its leaf index in the log and its inclusion proof in the header's checkpoint. Every byte is checked by
 * `finsynth audit verify`: the events by their hash chain, the chain by the proofs, the proofs by the signed
 * checkpoint, and the balance by replaying the events.
 *
 * The proofs of neighbouring leaves end alike (the subtrees above both), so a line writes only the start of
 * its proof and says how many of the previous line's last elements complete it: a bundle of an account's
 * events is then about a third of the size it would be with each proof whole, and as fast to check.
 */
export const BUNDLE_FORMAT = 'finsynth-audit-bundle/1';

export interface BundleBalance {
  credits_available: number;
  credits_reserved: number;
}

export interface BundleConsistency {
  /** The size of a checkpoint the auditor kept (the export's `consistency_from`). */
  from_size: number;
  /** The root of the log at that size, base64: it must be the kept checkpoint's. */
  from_root: string;
  /** RFC 9162 consistency proof from that size to the header's checkpoint, base64 hashes. */
  proof: string[];
}

export interface BundleHeader {
  format: typeof BUNDLE_FORMAT;
  account_id: string;
  /** The signed checkpoint (C2SP tlog-checkpoint) every proof of the bundle leads to. */
  checkpoint: string;
  /** The balance the service showed for the account after the bundle's last event (its ledger projection). */
  balance: BundleBalance;
  consistency?: BundleConsistency;
}

/** An event as its hash covers it, with the hash: the envelope without the store's global position. */
export type BundledEvent = Omit<RecordedEvent, 'position'>;

export interface BundleEntry {
  leaf_index: number;
  /**
   * The start of the RFC 9162 inclusion proof of the event's leaf in the checkpoint's tree (base64 hashes, the
   * leaf's sibling first); the proof is these, then the last `shared` elements of the previous line's proof.
   */
  proof: string[];
  shared: number;
  event: BundledEvent;
}

/** What a line writes of its proof: all but the longest end it shares with the previous line's proof. */
export function proofDelta(proof: readonly string[], previous: readonly string[]): { proof: string[]; shared: number } {
  let shared = 0;
  while (
    shared < proof.length &&
    shared < previous.length &&
    proof[proof.length - 1 - shared] === previous[previous.length - 1 - shared]
  )
    shared += 1;
  return { proof: proof.slice(0, proof.length - shared), shared };
}

/** A line's whole proof; null when it claims to share more of the previous line's proof than there is. */
export function wholeProof(start: readonly string[], shared: number, previous: readonly string[]): string[] | null {
  if (shared > previous.length) return null;
  return shared === 0 ? (start as string[]) : start.concat(previous.slice(previous.length - shared));
}

export const bundleLine = (value: BundleHeader | BundleEntry): string => `${canonicalJson(value)}\n`;

export function bundledEvent({ position: _position, ...event }: RecordedEvent): BundledEvent {
  return event;
}
