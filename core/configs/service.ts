import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { DocumentContent, Owner } from './document-decider.js';
import type { JsonSchema } from '../json-schema.js';
import { savedConfigs } from './config-documents.js';
import { savedOverlays } from './overlay-documents.js';
import { compose, type Composition, type Layer } from './compose.js';
import {
  readConfigInput,
  readInlineConfig,
  requireValidOverlay,
  type ConfigInput,
  type DocumentLoader,
  type InlineConfig,
} from './config-input.js';
import { configSchema, type GenerationConfig } from './config-schema.js';
import { estimateConfig, type ConfigEstimate } from './estimate.js';
import { withReferencedTables } from './referenced-tables.js';
import { normaliseConfig, type NormalConfig } from './normalise.js';
import { overlaySchema } from './overlay-schema.js';
import type { PackCatalog } from './ports.js';
import { SavedDocuments } from './saved-documents.js';
import { inSchemaOrder } from './schema-order.js';
import { within, type SourceMap } from './source-map.js';
import { requireValidConfig, validateConfig, type ConfigIssues, type ConfigValidation } from './validate.js';

export interface BalanceReader {
  balance(accountId: string): Promise<{ credits_available: number }>;
}

export interface ConfigServiceDeps {
  catalog: PackCatalog;
  commands: CommandHandler;
  /** The credits service: estimates say whether the balance covers them. */
  credits: BalanceReader;
  clock: Clock;
}

/** What a job runs: a valid config in normal form, its price, and where it came from. */
export interface ResolvedConfig {
  config: NormalConfig;
  estimate: ConfigEstimate;
  config_id: string | null;
  overlays: string[];
}

export type ValidationResult = ConfigValidation;

export interface ValidationReport extends ConfigIssues {
  valid: boolean;
  config: GenerationConfig | null;
  estimate: BalancedEstimate | null;
}

export interface BalancedEstimate extends ConfigEstimate {
  mode: Owner['mode'];
  credits_available: number;
  /** Whether the balance covers the estimate; always true in test mode, where nothing is charged. */
  balance_covers: boolean;
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
 * overlays. HTTP routes and jobs call it; it holds no state of its own (the documents are event
 * streams, read through their deciders, so a read right after a write always sees it).
 *
 * A method that takes a request's input also takes, optionally, its `inputSource`: where the input
 * stands in the request's JSON text, so that each issue of an inline config says its line and column.
 */
export class ConfigService implements DocumentLoader {
  /** The packs as config rules see them (quick generation checks its requests with the same rules). */
  readonly catalog: PackCatalog;
  /** Saved configs, kept in their normal form. */
  readonly savedConfigs: SavedDocuments<GenerationConfig>;
  /** Saved overlay layers, kept as given (shown in schema order). */
  readonly savedOverlays: SavedDocuments<Record<string, unknown>>;

  constructor(private readonly deps: ConfigServiceDeps) {
    this.catalog = deps.catalog;
    const shownBy = (schema: JsonSchema) => (content: DocumentContent) =>
      inSchemaOrder(schema, content) as DocumentContent;
    this.savedConfigs = new SavedDocuments(savedConfigs, deps, {
      store: (config) => normaliseConfig(config),
      show: shownBy(configSchema),
    });
    this.savedOverlays = new SavedDocuments(savedOverlays, deps, { show: shownBy(overlaySchema) });
  }

  /**
   * For jobs: `{config} | {config_yaml} | {config_id, overlays}` to a valid, normalised config and its
   * estimate, or a ProblemError.
   */
  async resolve(owner: Owner, input: ConfigInput, inputSource?: SourceMap): Promise<ResolvedConfig> {
    const document = await readConfigInput(input, owner, this, inputSource);
    const config = normaliseConfig(requireValidConfig(document.value, this.deps.catalog, document.source));
    return {
      config,
      estimate: estimateConfig(config, this.deps.catalog),
      config_id: 'config_id' in input ? input.config_id : null,
      overlays: 'config_id' in input ? (input.overlays ?? []) : [],
    };
  }

  /**
   * The estimate of a config whose referenced tables have the rows its plan gave them (a walk of parents
   * may have grown one beyond the catalog's sizing): what its job delivers and is charged for.
   */
  estimatePlanned(config: GenerationConfig, referenced: readonly { name: string; rows: number }[]): ConfigEstimate {
    return estimateConfig(withReferencedTables(config, this.deps.catalog, referenced), this.deps.catalog);
  }

  /** An inline config (JSON or YAML) that must be valid: a 400 `invalid-config` (or `invalid-yaml`) otherwise. */
  requireValid(input: InlineConfig, inputSource?: SourceMap): GenerationConfig {
    const document = readInlineConfig(input, inputSource);
    return requireValidConfig(document.value, this.deps.catalog, document.source);
  }

  /**
   * A validation as the API answers it: the normal form and the estimate against the balance when valid,
   * null otherwise.
   */
  async report(owner: Owner, validation: ValidationResult): Promise<ValidationReport> {
    if (!validation.valid) return { ...validation, config: null, estimate: null };
    return {
      valid: true,
      errors: [],
      config: validation.config,
      estimate: await this.estimate(owner, validation.config),
    };
  }

  /**
   * Validation never throws for an invalid config: it answers what is wrong (YAML that cannot be read
   * still throws).
   */
  async validate(owner: Owner, input: ConfigInput, inputSource?: SourceMap): Promise<ValidationResult> {
    const document = await readConfigInput(input, owner, this, inputSource);
    return this.check(document.value, document.source);
  }

  /** Validation of a plain value (with its source for positions), the normal form when valid. */
  check(value: unknown, source?: SourceMap): ValidationResult {
    const validation = validateConfig(value, this.deps.catalog, source);
    if (!validation.valid) return validation;
    return { valid: true, config: normaliseConfig(validation.config), errors: [] };
  }

  async estimate(owner: Owner, config: GenerationConfig): Promise<BalancedEstimate> {
    const estimate = estimateConfig(config, this.deps.catalog);
    const { credits_available } = await this.deps.credits.balance(owner.accountId);
    return {
      ...estimate,
      mode: owner.mode,
      credits_available,
      balance_covers: owner.mode === 'test' || credits_available >= estimate.credits,
    };
  }

  async compose(owner: Owner, request: ComposeRequest, inputSource?: SourceMap): Promise<ComposeResult> {
    const layers: Layer[] = [];
    layers.push(
      typeof request.base === 'string'
        ? { ref: request.base, content: await this.config(owner, request.base) }
        : { ref: 'base', content: requireValidOverlay(request.base, within(inputSource, '/base'), 'the base') },
    );
    for (const [index, overlay] of request.overlays.entries()) {
      layers.push(
        typeof overlay === 'string'
          ? { ref: overlay, content: await this.overlay(owner, overlay) }
          : {
              ref: `overlays[${index}]`,
              content: requireValidOverlay(overlay, within(inputSource, `/overlays/${index}`), `overlays[${index}]`),
            },
      );
    }
    const composition = compose(layers);
    return { ...composition, validation: this.check(composition.config) };
  }

  /** A saved config's content in its stored (normal) form, as composition reads it as a layer. */
  async config(owner: Owner, id: string): Promise<DocumentContent> {
    return this.savedConfigs.content(owner, id);
  }

  async overlay(owner: Owner, id: string): Promise<Record<string, unknown>> {
    return this.savedOverlays.content(owner, id);
  }
}
