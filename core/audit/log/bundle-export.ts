import type { RecordedEvent } from '../../events/envelope.js';
import type { AuditLog } from './audit-log.js';
import {
  BUNDLE_FORMAT,
  bundledEvent,
  bundleLine,
  type BundleBalance,
  type BundleConsistency,
  type BundleHeader,
  proofDelta,
} from './bundle.js';
import type { SignedCheckpoint } from './checkpoint.js';

/** Events whose proofs are read and written together: the subtrees they share are read once per slice. */
const SLICE = 2_048;
/** Every this many lines a proof is written whole, where a verifier may start a thread of its own. */
export const WHOLE_PROOF_EVERY = 1_024;

export interface BundleContent {
  accountId: string;
  /** The account's stream from its first event, every one of them in the checkpoint's tree. */
  events: readonly RecordedEvent[];
  /** Each event's leaf index, by global position. */
  leafIndexes: ReadonlyMap<number, number>;
  checkpoint: SignedCheckpoint;
  balance: BundleBalance;
  consistency?: BundleConsistency;
}

/** The bundle's lines (bundle.ts), the header first; proofs are generated slice by slice as the lines are read. */
export async function* bundleLines(log: AuditLog, content: BundleContent): AsyncGenerator<string> {
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    account_id: content.accountId,
    checkpoint: content.checkpoint.note,
    balance: content.balance,
    ...(content.consistency ? { consistency: content.consistency } : {}),
  };
  yield bundleLine(header);
  let previous: string[] = [];
  for (let at = 0; at < content.events.length; at += SLICE) {
    const slice = content.events.slice(at, at + SLICE);
    const indexes = slice.map((event) => content.leafIndexes.get(event.position)!);
    const proofs = await log.inclusionProofs(indexes, content.checkpoint.size);
    let text = '';
    slice.forEach((event, i) => {
      const proof = proofs[i].map((hash) => hash.toString('base64'));
      if ((at + i) % WHOLE_PROOF_EVERY === 0) previous = [];
      text += bundleLine({ leaf_index: indexes[i], ...proofDelta(proof, previous), event: bundledEvent(event) });
      previous = proof;
    });
    yield text;
  }
}
