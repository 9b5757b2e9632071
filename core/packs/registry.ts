import { problem } from '../problems.js';
import { GenerationProblems } from '../generation/problems.js';
import { columnParams } from './manifest.js';
import { parentsOf } from '../generation/pack-definition.js';
import { isComputed, overridableOf } from '../generation/types/params.js';
import type { ColumnDefinition, PackDefinition } from './sdk.js';
import { dataTypeByName, dataTypes, describeDataType } from '../generation/types/index.js';
import { ownMember } from '../own-member.js';

/** A pack the host accepted: its definition and the module the workers import to run it. */
export interface LoadedPack {
  definition: PackDefinition;
  /** What the workers import to run the pack: a file: URL, or an npm package's name. */
  module_url: string;
  /** Where it came from: `builtin`, a directory, or an npm package name. */
  source: string;
}

/** A pack the host refused, and every reason. */
export interface RefusedPack {
  source: string;
  /** The pack's name when its module loaded far enough to give one; else its package's or folder's name. */
  name: string | null;
  /** The file at fault (the module itself when it hangs), and the line when the error says it. */
  file?: string | null;
  line?: number | null;
  reasons: string[];
}

/**
 * The loaded sector packs, and their descriptions as the catalog serves them (JSON-ready, snake_case).
 */
export class PackRegistry {
  private readonly byName: Map<string, LoadedPack>;

  constructor(
    packs: readonly LoadedPack[],
    readonly refused: readonly RefusedPack[] = [],
  ) {
    this.byName = new Map(packs.map((pack) => [pack.definition.name, pack]));
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  get(name: string): LoadedPack | undefined {
    return this.byName.get(name);
  }

  /** The pack of a sector, or the `unknown-sector` problem. */
  require(name: string): PackDefinition {
    return this.loaded(name).definition;
  }

  loaded(name: string): LoadedPack {
    const pack = this.byName.get(name);
    if (!pack) {
      throw problem(
        GenerationProblems.unknownSector,
        `No sector "${name}"; the sectors are ${this.names().join(', ') || 'none'}.`,
        { sector: name },
      );
    }
    return pack;
  }

  /** The catalog: every pack (with its tables) and every data type. */
  describe() {
    return { sectors: this.names().map((name) => this.describePack(name)), data_types: this.describeDataTypes() };
  }

  describeDataTypes() {
    return dataTypes.map(describeDataType);
  }

  describePack(name: string) {
    const { definition } = this.loaded(name);
    return {
      name: definition.name,
      version: definition.version,
      description: definition.description,
      tables: Object.keys(definition.tables).map((table) => this.describeTable(name, table)),
    };
  }

  /** One table's schema; `undefined` when the sector has no such table. */
  describeTable(sector: string, table: string) {
    const pack = this.require(sector);
    const definition = ownMember(pack.tables, table);
    if (!definition) return undefined;
    return {
      name: table,
      description: definition.description,
      default_rows: definition.default_rows,
      credits_per_1000_rows: definition.credits_per_1000_rows,
      generated_per: definition.per_parent ?? null,
      rows_per_parent: definition.rows_per_parent !== undefined,
      columns: Object.entries(definition.columns).map(([column, spec]) => ({
        name: column,
        type: spec.type,
        nullable: Boolean(spec.nullable) || (spec.null_rate ?? 0) > 0,
        description: spec.description,
        example: spec.example ?? exampleOf(pack, spec),
        params: columnParams(spec),
        computed: isComputed(spec),
        overridable: overridableOf(spec),
      })),
      references: Object.entries(definition.columns)
        .filter(([, spec]) => spec.type === 'reference')
        .map(([column, spec]) => ({ column, table: String(spec.table) })),
      parents: parentsOf(pack, table),
      options: Object.entries(definition.options ?? {}).map(([option, spec]) => ({
        name: option,
        description: spec.description,
        schema: spec.schema,
        default: spec.default,
      })),
    };
  }
}

/**
 * A column's example when its pack gives none: its type's, but a key or a reference spelled with the
 * prefix of the table it keys (one example shared by every id column of every pack would tell a client nothing).
 */
function exampleOf(pack: PackDefinition, spec: ColumnDefinition): unknown {
  const example = dataTypeByName.get(spec.type)!.example;
  const keyed =
    spec.type === 'id' ? spec : spec.type === 'reference' ? keyColumnOf(pack, String(spec.table)) : undefined;
  return keyed && typeof example === 'string'
    ? `${String(keyed.prefix)}${example.slice(example.indexOf('_'))}`
    : example;
}

function keyColumnOf(pack: PackDefinition, table: string): ColumnDefinition | undefined {
  const columns = ownMember(pack.tables, table)?.columns ?? {};
  return Object.values(columns).find((column) => column.type === 'id');
}
