import type { RecordedEvent } from '../../events/envelope.js';
import { canonicalJson } from '../../events/canonical-json.js';

/**
 * The export bundle (docs/audit.md): JSON Lines, each line the canonical JSON (RFC 8785) of its value. The
 * first line is the header; every other line is one event of the account's stream, in revision order, with
 * its leaf index in the log and its inclusion proof in the header's checkpoint. Every byte is checked by
 * `finsynth audit verify`: the events by their hash chain, the chain by the proofs, the proofs by the signed
 * checkpoint, and the balance by replaying the events.
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
  /** RFC 9162 inclusion proof of the event's leaf in the checkpoint's tree, base64 hashes, the leaf's sibling first. */
  proof: string[];
  event: BundledEvent;
}

export const bundleLine = (value: BundleHeader | BundleEntry): string => `${canonicalJson(value)}\n`;

export function bundledEvent({ position: _position, ...event }: RecordedEvent): BundledEvent {
  return event;
}
