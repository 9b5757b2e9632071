import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, type JsonSchema } from '../json-schema.js';
import type { RecordedEvent } from './envelope.js';

/**
 * One event type: its current version, the JSON Schema of its data at that version, and the
 * upcasters that lift data written by older versions. Stored events are never rewritten; they are
 * upcast each time they are read.
 */
export interface EventDefinition<Type extends string = string> {
  type: Type;
  version: number;
  schema: JsonSchema;
  /** upcasters[n] turns data of version n into data of version n + 1. */
  upcasters?: Record<number, (data: unknown) => unknown>;
}

export class UnknownEventTypeError extends Error {
  constructor(readonly eventType: string) {
    super(`event type "${eventType}" is not registered`);
  }
}

export class InvalidEventDataError extends Error {
  constructor(
    readonly eventType: string,
    readonly errors: string,
  ) {
    super(`data of event "${eventType}" does not match its schema: ${errors}`);
  }
}

export class EventRegistry {
  private readonly definitions = new Map<string, EventDefinition>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = createAjv();

  constructor(definitions: Iterable<EventDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  register(definition: EventDefinition): this {
    if (this.definitions.has(definition.type)) throw new Error(`event type "${definition.type}" is registered twice`);
    this.definitions.set(definition.type, definition);
    this.validators.set(definition.type, this.ajv.compile(definition.schema));
    return this;
  }

  types(): string[] {
    return [...this.definitions.keys()];
  }

  currentVersion(type: string): number {
    return this.definition(type).version;
  }

  /** Throws unless data is valid for the type's current version: nothing malformed enters the store. */
  validate(type: string, data: unknown): void {
    const validator = this.validators.get(type);
    if (!validator) throw new UnknownEventTypeError(type);
    if (!validator(data)) throw new InvalidEventDataError(type, this.ajv.errorsText(validator.errors));
  }

  /** Lifts an event read from the store to its type's current version. */
  upcast<E extends RecordedEvent>(event: E): E {
    const definition = this.definition(event.type);
    if (event.version === definition.version) return event;
    let data = event.data;
    for (let version = event.version; version < definition.version; version += 1) {
      const upcaster = definition.upcasters?.[version];
      if (!upcaster) throw new Error(`event type "${event.type}" has no upcaster from version ${version}`);
      data = upcaster(data);
    }
    return { ...event, version: definition.version, data };
  }

  private definition(type: string): EventDefinition {
    const definition = this.definitions.get(type);
    if (!definition) throw new UnknownEventTypeError(type);
    return definition;
  }
}
