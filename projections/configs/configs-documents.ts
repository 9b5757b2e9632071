import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import { isEventOf } from '../../core/events/event-of.js';
import type {
  DocumentContent,
  DocumentDeleted,
  DocumentEvent,
  DocumentSaved,
  DocumentUpdated,
  Owner,
} from '../../core/configs/document-decider.js';
import type { Projection } from '../runner/projection.js';

/** A saved config or overlay as the API shows it. */
export interface DocumentView {
  id: string;
  name: string;
  mode: Mode;
  version: number;
  content: DocumentContent;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface DocumentsState {
  documents: Record<string, DocumentView & { account_id: string }>;
  /** Ids by `${account_id}/${mode}`, in the order they were saved. */
  byOwner: Record<string, string[]>;
}

const ownerKey = (owner: Owner) => `${owner.accountId}/${owner.mode}`;

/**
 * The read model of one document kind (saved configs, overlays): every document by id and each
 * owner's documents in save order. Deleted documents stay, marked, as their streams do.
 */
export function documentsProjection<Noun extends string>(name: string, noun: Noun): Projection<DocumentsState> {
  const [saved, updated, deleted] = [`${noun}Saved`, `${noun}Updated`, `${noun}Deleted`] as const;
  const types: readonly DocumentEvent<Noun>['type'][] = [saved, updated, deleted];
  return {
    name,
    version: 1,
    handles: types,
    initialState: () => ({ documents: {}, byOwner: {} }),
    apply(state, event: RecordedEvent) {
      // The runner hands the projection only the types it handles: anything else is not this kind's to fold.
      if (!isEventOf<DocumentEvent<Noun>>(event, types)) return state;
      const { type, data } = event;
      const existing = state.documents[data.id];
      if (type === saved) {
        const d = data as DocumentSaved<Noun>['data'];
        state.documents[d.id] = {
          id: d.id,
          account_id: d.account_id,
          name: d.name,
          mode: d.mode,
          version: 1,
          content: d.content,
          created_at: d.saved_at,
          updated_at: d.saved_at,
          deleted_at: null,
        };
        (state.byOwner[ownerKey({ accountId: d.account_id, mode: d.mode })] ??= []).push(d.id);
        return state;
      }
      if (!existing) throw new Error(`${type} for unknown ${noun.toLowerCase()} ${data.id}`);
      if (type === updated) {
        const d = data as DocumentUpdated<Noun>['data'];
        Object.assign(existing, {
          name: d.name,
          content: d.content,
          version: existing.version + 1,
          updated_at: d.updated_at,
        });
      } else if (type === deleted) {
        existing.deleted_at = (data as DocumentDeleted<Noun>['data']).deleted_at;
      }
      return state;
    },
    toJSON: (state) => ({
      documents: Object.fromEntries(Object.entries(state.documents).sort(([a], [b]) => a.localeCompare(b))),
      byOwner: Object.fromEntries(Object.entries(state.byOwner).sort(([a], [b]) => a.localeCompare(b))),
    }),
    fromJSON: (json) => json as DocumentsState,
  };
}

/**
 * The owner's documents, newest first (the order of GET /v1/configs and /v1/overlays), the deleted ones
 * too: a list shows those that `isLive`, and pages over all so that a deleted document's cursor holds.
 */
export function ownerDocuments(state: DocumentsState, owner: Owner): DocumentView[] {
  return (state.byOwner[ownerKey(owner)] ?? [])
    .map((id) => state.documents[id])
    .reverse()
    .map(({ account_id: _owner, ...view }) => view);
}

export const isLive = (document: DocumentView): boolean => document.deleted_at === null;
