import type { Clock } from '../clock.js';
import type { EventMetadata } from '../events/envelope.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { DocumentContent, DocumentModel, DocumentState, Owner } from './document-decider.js';
import { Problems, problem } from '../problems.js';

/** A saved document as its owner sees it, and the global position its last write reached (for read-your-writes). */
export interface SavedDocument {
  id: string;
  name: string;
  mode: Owner['mode'];
  version: number;
  content: DocumentContent;
  created_at: string;
  updated_at: string;
  position: number;
}

/**
 * One kind of saved document (configs, overlays), read and written as its owner may: each document is an
 * event stream behind the kind's decider, so a read right after a write always sees it. `form.store`
 * gives the content its stored form (a config is kept normalised); `form.show` the form every answer
 * shows it in, whether it was just written or read back from the store, which keeps it as canonical JSON.
 */
export class SavedDocuments<Content extends object> {
  private readonly store: (content: Content) => DocumentContent;
  /** The content as answers show it (GET /v1/configs shows the projection's documents through it too). */
  readonly show: (content: DocumentContent) => DocumentContent;

  constructor(
    private readonly model: DocumentModel<string>,
    private readonly deps: { commands: CommandHandler; clock: Clock },
    form: { store?: (content: Content) => DocumentContent; show: (content: DocumentContent) => DocumentContent },
  ) {
    this.store = form.store ?? ((content) => content as DocumentContent);
    this.show = form.show;
  }

  async save(owner: Owner, name: string, content: Content, metadata?: EventMetadata): Promise<SavedDocument> {
    const id = this.model.newId();
    const command = { type: 'Save' as const, id, owner, name, content: this.store(content), at: this.now() };
    const result = await this.deps.commands.handle(this.model.decider, this.model.stream(id), command, { metadata });
    return this.view(result.state, result.position);
  }

  async update(
    owner: Owner,
    id: string,
    changes: { name?: string; content?: Content },
    metadata?: EventMetadata,
  ): Promise<SavedDocument> {
    this.requireId(id);
    const content = changes.content && this.store(changes.content);
    const command = { type: 'Update' as const, id, owner, name: changes.name, content, at: this.now() };
    const result = await this.deps.commands.handle(this.model.decider, this.model.stream(id), command, { metadata });
    return this.view(result.state, result.position);
  }

  async delete(owner: Owner, id: string, metadata?: EventMetadata): Promise<number> {
    this.requireId(id);
    return (
      await this.deps.commands.handle(
        this.model.decider,
        this.model.stream(id),
        { type: 'Delete', id, owner, at: this.now() },
        { metadata },
      )
    ).position;
  }

  async get(owner: Owner, id: string): Promise<SavedDocument> {
    this.requireId(id);
    const { state, position } = await this.deps.commands.load(this.model.decider, this.model.stream(id));
    if (!this.model.visibleTo(state, owner)) throw problem(Problems.notFound, `no ${this.model.noun} ${id}`);
    return this.view(state, position);
  }

  /**
   * The content alone, as composition reads a layer: the JSON object the document holds (a config in its
   * normal form), whatever type the content was given as.
   */
  async content(owner: Owner, id: string): Promise<DocumentContent> {
    return (await this.get(owner, id)).content;
  }

  private requireId(id: string): void {
    if (!this.model.isId(id)) throw problem(Problems.notFound, `no ${this.model.noun} ${id}`);
  }

  private view(state: DocumentState, position: number): SavedDocument {
    return {
      id: state.id!,
      name: state.name!,
      mode: state.owner!.mode,
      version: state.version,
      content: this.show(state.content!),
      created_at: state.createdAt!,
      updated_at: state.updatedAt!,
      position,
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
