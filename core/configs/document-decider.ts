import { randomBytes } from 'node:crypto';
import type { Mode } from '../events/envelope.js';
import type { EventDefinition } from '../events/registry.js';
import type { JsonSchema } from '../json-schema.js';
import { Problems, problem } from '../problems.js';
import type { Decider, DomainEvent } from '../commands/decider.js';

/**
 * Saved configs and overlays live the same life: saved, updated, deleted, each in a stream of its own,
 * owned by one account in one mode. This builds the decider of such a document kind;
 * config-documents.ts and overlay-documents.ts instantiate it. A deleted document keeps its stream: its
 * history stays.
 */
export interface Owner {
  accountId: string;
  mode: Mode;
}

export type DocumentContent = Record<string, unknown>;

export interface DocumentState {
  id: string | null;
  owner: Owner | null;
  name: string | null;
  content: DocumentContent | null;
  /** 1 when saved, +1 on each update. */
  version: number;
  createdAt: string | null;
  updatedAt: string | null;
  deletedAt: string | null;
}

export type SaveDocument = {
  type: 'Save';
  id: string;
  owner: Owner;
  name: string;
  content: DocumentContent;
  at: string;
};
export type UpdateDocument = {
  type: 'Update';
  id: string;
  owner: Owner;
  name?: string;
  content?: DocumentContent;
  at: string;
};
export type DeleteDocument = { type: 'Delete'; id: string; owner: Owner; at: string };
export type DocumentCommand = SaveDocument | UpdateDocument | DeleteDocument;

export type DocumentSaved<Noun extends string> = DomainEvent<
  `${Noun}Saved`,
  { id: string; account_id: string; mode: Mode; name: string; content: DocumentContent; saved_at: string }
>;
export type DocumentUpdated<Noun extends string> = DomainEvent<
  `${Noun}Updated`,
  { id: string; name: string; content: DocumentContent; updated_at: string }
>;
export type DocumentDeleted<Noun extends string> = DomainEvent<`${Noun}Deleted`, { id: string; deleted_at: string }>;
export type DocumentEvent<Noun extends string> = DocumentSaved<Noun> | DocumentUpdated<Noun> | DocumentDeleted<Noun>;

export interface DocumentKind<Noun extends string> {
  /** `Config` gives ConfigSaved, ConfigUpdated, ConfigDeleted. */
  noun: Noun;
  /** Streams are `${streamPrefix}-${id}`. */
  streamPrefix: string;
  /** Ids are `${idPrefix}_` and 24 hex digits. */
  idPrefix: string;
  /** JSON Schema of the content, checked on every append. */
  contentSchema: JsonSchema;
}

export interface DocumentModel<Noun extends string> {
  /** Lower case, for messages. */
  noun: string;
  decider: Decider<DocumentState, DocumentCommand, DocumentEvent<Noun>>;
  events: EventDefinition[];
  stream(id: string): string;
  newId(): string;
  /** Whether `id` has the shape of this kind's ids: anything else is not found without a read. */
  isId(id: string): boolean;
  /** Whether `owner` may see the document: it exists, is not deleted, and is theirs in their mode. */
  visibleTo(state: DocumentState, owner: Owner): boolean;
}

export const MAX_NAME_LENGTH = 200;

export function documentModel<Noun extends string>(kind: DocumentKind<Noun>): DocumentModel<Noun> {
  const saved = `${kind.noun}Saved` as const;
  const updated = `${kind.noun}Updated` as const;
  const deleted = `${kind.noun}Deleted` as const;
  const noun = kind.noun.toLowerCase();
  const id = { type: 'string', minLength: 1 };
  const name = { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH };
  const at = { type: 'string', format: 'date-time' };
  // Embedded twice in one registry: an $id would be registered twice.
  const { $id: _id, $schema: _dialect, ...content } = kind.contentSchema;
  const event = (properties: Record<string, unknown>) => ({
    type: 'object',
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  });

  const visibleTo = (state: DocumentState, owner: Owner) =>
    state.id !== null &&
    state.deletedAt === null &&
    state.owner?.accountId === owner.accountId &&
    state.owner.mode === owner.mode;

  const requireVisible = (state: DocumentState, command: UpdateDocument | DeleteDocument) => {
    if (!visibleTo(state, command.owner)) throw problem(Problems.notFound, `no ${noun} ${command.id}`);
  };

  const decider: Decider<DocumentState, DocumentCommand, DocumentEvent<Noun>> = {
    initialState: () => ({
      id: null,
      owner: null,
      name: null,
      content: null,
      version: 0,
      createdAt: null,
      updatedAt: null,
      deletedAt: null,
    }),

    decide(command, state) {
      switch (command.type) {
        case 'Save': {
          if (state.id !== null) throw problem(Problems.conflict, `${noun} ${command.id} already exists`);
          const data = {
            id: command.id,
            account_id: command.owner.accountId,
            mode: command.owner.mode,
            name: command.name,
            content: command.content,
            saved_at: command.at,
          };
          return [{ type: saved, data } as DocumentSaved<Noun>];
        }
        case 'Update': {
          requireVisible(state, command);
          const next = { name: command.name ?? state.name!, content: command.content ?? state.content! };
          if (next.name === state.name && JSON.stringify(next.content) === JSON.stringify(state.content)) return [];
          return [
            { type: updated, data: { id: command.id, ...next, updated_at: command.at } } as DocumentUpdated<Noun>,
          ];
        }
        case 'Delete':
          requireVisible(state, command);
          return [{ type: deleted, data: { id: command.id, deleted_at: command.at } } as DocumentDeleted<Noun>];
      }
    },

    evolve(state, { type, data }) {
      if (type === saved) {
        const d = data as DocumentSaved<Noun>['data'];
        return {
          ...state,
          id: d.id,
          owner: { accountId: d.account_id, mode: d.mode },
          name: d.name,
          content: d.content,
          version: 1,
          createdAt: d.saved_at,
          updatedAt: d.saved_at,
        };
      }
      if (type === updated) {
        const d = data as DocumentUpdated<Noun>['data'];
        return { ...state, name: d.name, content: d.content, version: state.version + 1, updatedAt: d.updated_at };
      }
      if (type === deleted) return { ...state, deletedAt: (data as DocumentDeleted<Noun>['data']).deleted_at };
      return state;
    },
  };

  const idShape = new RegExp(`^${kind.idPrefix}_[0-9a-f]{24}$`);
  return {
    noun,
    decider,
    visibleTo,
    stream: (documentId) => `${kind.streamPrefix}-${documentId}`,
    newId: () => `${kind.idPrefix}_${randomBytes(12).toString('hex')}`,
    isId: (documentId) => idShape.test(documentId),
    events: [
      {
        type: saved,
        version: 1,
        schema: event({ id, account_id: id, mode: { enum: ['live', 'test'] }, name, content, saved_at: at }),
      },
      { type: updated, version: 1, schema: event({ id, name, content, updated_at: at }) },
      { type: deleted, version: 1, schema: event({ id, deleted_at: at }) },
    ],
  };
}
