import type { Clock } from '../clock.js';
import type { EventMetadata } from '../events/envelope.js';
import type { CommandHandler } from '../domain/command-handler.js';
import type { DocumentContent, DocumentModel, DocumentState, Owner } from '../domain/config/document-decider.js';
import { savedConfigs } from '../domain/config/index.js';
import { savedOverlays } from '../domain/overlay/index.js';
import { Problems, problem } from '../problems.js';
import { compose, type Composition, type Layer } from './compose.js';
import { readConfigInput, requireValidOverlay, type ConfigInput, type DocumentLoader } from './config-input.js';
import type { GenerationConfig } from './config-schema.js';
import { estimateConfig, type ConfigEstimate } from './estimate.js';
import type { ConfigIssue } from './issues.js';
import { normaliseConfig } from './normalise.js';
import type { PackCatalog } from './pack-catalog.js';
import { requireValidConfig, validateConfig } from './validate.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';

export interface BalanceReader {
  balance(accountId: string): Promise<{ credits_available: number }>;
}

export interface ConfigServiceDeps {
  catalog: PackCatalog;
  commands: CommandHandler;
  /** CREDITS' service: estimates say whether the balance covers them. */
  credits: BalanceReader;
  clock: Clock;
}

/** What JOBS runs: a valid config in normal form, its price, and where it came from. */
export interface ResolvedConfig {
  config: GenerationConfig;
  estimate: ConfigEstimate;
  config_id: string | null;
  overlays: string[];
}

export type ValidationResult =
  | { valid: true; config: GenerationConfig; errors: [] }
  | { valid: false; errors: ConfigIssue[] };

export interface ValidationReport {
  valid: boolean;
  errors: ConfigIssue[];
  config: GenerationConfig | null;
  estimate: BalancedEstimate | null;
}

export interface BalancedEstimate extends ConfigEstimate {
  mode: Owner['mode'];
  credits_available: number;
  /** Whether the balance covers the estimate; always true in test mode, where nothing is charged. */
  balance_covers: boolean;
}

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

export interface ComposeRequest {
  /** A saved config's id, or an inline (possibly partial) config. */
  base: string | Record<string, unknown>;
  /** Saved overlay ids or inline overlays, applied in order. */
  overlays: (string | Record<string, unknown>)[];
}

/** The composed document with each field's layer, and the validation (with the normal form) of the result. */
export type ComposeResult = Composition & { validation: ValidationResult };

/**
 * The configs capability: reading, validating, pricing, composing and saving generation configs and
 * overlays. HTTP routes and JOBS call it; it holds no state of its own (the documents are event
 * streams, read through their deciders, so a read right after a write always sees it).
 */
export class ConfigService implements DocumentLoader {
  /** The packs as config rules see them (quick generation checks its requests with the same rules). */
  readonly catalog: PackCatalog;

  constructor(private readonly deps: ConfigServiceDeps) {
    this.catalog = deps.catalog;
  }

  /** For JOBS: `{config} | {config_yaml} | {config_id, overlays}` to a valid, normalised config and its estimate, or a ProblemError. */
  async resolve(owner: Owner, input: ConfigInput): Promise<ResolvedConfig> {
    const document = await readConfigInput(input, owner, this);
    const config = normaliseConfig(requireValidConfig(document.value, this.deps.catalog, document.source));
    return {
      config,
      estimate: estimateConfig(config, this.deps.catalog),
      config_id: 'config_id' in input ? input.config_id : null,
      overlays: 'config_id' in input ? (input.overlays ?? []) : [],
    };
  }

  /** An inline config (JSON or YAML) that must be valid: a 400 `invalid-config` (or `invalid-yaml`) otherwise. */
  requireValid(input: { config: unknown } | { config_yaml: string }): GenerationConfig {
    const source = 'config_yaml' in input ? parseYamlSource(input.config_yaml) : undefined;
    return requireValidConfig(source ? source.value : (input as { config: unknown }).config, this.deps.catalog, source);
  }

  /** A validation as the API answers it: the normal form and the estimate against the balance when valid, null otherwise. */
  async report(owner: Owner, validation: ValidationResult): Promise<ValidationReport> {
    if (!validation.valid) return { valid: false, errors: validation.errors, config: null, estimate: null };
    return { valid: true, errors: [], config: validation.config, estimate: await this.estimate(owner, validation.config) };
  }

  /** Validation never throws for an invalid config: it answers what is wrong (YAML that cannot be read still throws). */
  async validate(owner: Owner, input: ConfigInput): Promise<ValidationResult> {
    const document = await readConfigInput(input, owner, this);
    return this.check(document.value, document.source);
  }

  /** Validation of a plain value (with its YAML source for positions), the normal form when valid. */
  check(value: unknown, source?: YamlSource): ValidationResult {
    const validation = validateConfig(value, this.deps.catalog, source);
    if (!validation.valid) return validation;
    return { valid: true, config: normaliseConfig(validation.config), errors: [] };
  }

  async estimate(owner: Owner, config: GenerationConfig): Promise<BalancedEstimate> {
    const estimate = estimateConfig(config, this.deps.catalog);
    const { credits_available } = await this.deps.credits.balance(owner.accountId);
    return { ...estimate, mode: owner.mode, credits_available, balance_covers: owner.mode === 'test' || credits_available >= estimate.credits };
  }

  async compose(owner: Owner, request: ComposeRequest): Promise<ComposeResult> {
    const layers: Layer[] = [];
    layers.push(
      typeof request.base === 'string'
        ? { ref: request.base, content: (await this.config(owner, request.base)) as unknown as Record<string, unknown> }
        : { ref: 'base', content: requireValidOverlay(request.base, undefined, 'the base') },
    );
    for (const [index, overlay] of request.overlays.entries()) {
      layers.push(
        typeof overlay === 'string'
          ? { ref: overlay, content: await this.overlay(owner, overlay) }
          : { ref: `overlays[${index}]`, content: requireValidOverlay(overlay, undefined, `overlays[${index}]`) },
      );
    }
    const composition = compose(layers);
    return { ...composition, validation: this.check(composition.config) };
  }

  async saveConfig(owner: Owner, name: string, config: GenerationConfig, metadata?: EventMetadata): Promise<SavedDocument> {
    return this.save(savedConfigs, owner, name, normaliseConfig(config) as unknown as DocumentContent, metadata);
  }

  async updateConfig(owner: Owner, id: string, changes: { name?: string; config?: GenerationConfig }, metadata?: EventMetadata): Promise<SavedDocument> {
    const content = changes.config && (normaliseConfig(changes.config) as unknown as DocumentContent);
    return this.update(savedConfigs, owner, id, { name: changes.name, content }, metadata);
  }

  async deleteConfig(owner: Owner, id: string, metadata?: EventMetadata): Promise<number> {
    return this.delete(savedConfigs, owner, id, metadata);
  }

  async getConfig(owner: Owner, id: string): Promise<SavedDocument> {
    return this.get(savedConfigs, owner, id);
  }

  async saveOverlay(owner: Owner, name: string, overlay: Record<string, unknown>, metadata?: EventMetadata): Promise<SavedDocument> {
    return this.save(savedOverlays, owner, name, overlay, metadata);
  }

  async updateOverlay(owner: Owner, id: string, changes: { name?: string; overlay?: Record<string, unknown> }, metadata?: EventMetadata): Promise<SavedDocument> {
    return this.update(savedOverlays, owner, id, { name: changes.name, content: changes.overlay }, metadata);
  }

  async deleteOverlay(owner: Owner, id: string, metadata?: EventMetadata): Promise<number> {
    return this.delete(savedOverlays, owner, id, metadata);
  }

  async getOverlay(owner: Owner, id: string): Promise<SavedDocument> {
    return this.get(savedOverlays, owner, id);
  }

  async config(owner: Owner, id: string): Promise<GenerationConfig> {
    return (await this.getConfig(owner, id)).content as unknown as GenerationConfig;
  }

  async overlay(owner: Owner, id: string): Promise<Record<string, unknown>> {
    return (await this.getOverlay(owner, id)).content;
  }

  private async save<Noun extends string>(model: DocumentModel<Noun>, owner: Owner, name: string, content: DocumentContent, metadata?: EventMetadata): Promise<SavedDocument> {
    const id = model.newId();
    const result = await this.deps.commands.handle(model.decider, model.stream(id), { type: 'Save', id, owner, name, content, at: this.now() }, { metadata });
    return view(result.state, result.position);
  }

  private async update<Noun extends string>(model: DocumentModel<Noun>, owner: Owner, id: string, changes: { name?: string; content?: DocumentContent }, metadata?: EventMetadata): Promise<SavedDocument> {
    requireId(model, id);
    const command = { type: 'Update' as const, id, owner, ...changes, at: this.now() };
    const result = await this.deps.commands.handle(model.decider, model.stream(id), command, { metadata });
    return view(result.state, result.position);
  }

  private async delete<Noun extends string>(model: DocumentModel<Noun>, owner: Owner, id: string, metadata?: EventMetadata): Promise<number> {
    requireId(model, id);
    return (await this.deps.commands.handle(model.decider, model.stream(id), { type: 'Delete', id, owner, at: this.now() }, { metadata })).position;
  }

  private async get<Noun extends string>(model: DocumentModel<Noun>, owner: Owner, id: string): Promise<SavedDocument> {
    requireId(model, id);
    const { state, position } = await this.deps.commands.load(model.decider, model.stream(id));
    if (!model.visibleTo(state, owner)) throw problem(Problems.notFound, `no ${model.noun} ${id}`);
    return view(state, position);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function requireId<Noun extends string>(model: DocumentModel<Noun>, id: string): void {
  if (!model.isId(id)) throw problem(Problems.notFound, `no ${model.noun} ${id}`);
}

function view(state: DocumentState, position: number): SavedDocument {
  return {
    id: state.id!,
    name: state.name!,
    mode: state.owner!.mode,
    version: state.version,
    content: state.content!,
    created_at: state.createdAt!,
    updated_at: state.updatedAt!,
    position,
  };
}
