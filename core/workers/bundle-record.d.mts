/**
 * What a bundle was built from, kept beside the bundles: a later process that finds every source unchanged
 * starts the bundle as it is, without loading esbuild or building (tens of milliseconds a process).
 */
export interface BundleRecord {
  esbuild: string;
  /** Each source file bundled, by absolute path, with the SHA-256 of the bytes bundled. */
  sources: Record<string, string>;
  /** The package files the bundle imports by URL: a reinstall may move them. */
  packages: string[];
  /** The bundle's directory, beside the record, and its files. */
  directory: string;
  files: string[];
}

export declare function sha256(bytes: Uint8Array | string): string;
/** The record of an entry's bundle, in the directory of bundles. */
export declare function recordPath(bundles: string, entryPath: string): string;
/** The bundle's file of an entry, `x.ts` bundled as `x.mjs`. */
export declare function bundledName(entryPath: string): string;
/** Read from its package file: esbuild itself is not loaded for it. */
export declare function esbuildVersion(): string;
/** This user's directory of bundles, refused if anyone else could have put code in it. */
export declare function bundlesDirectory(): Promise<string>;
/** The entry's kept bundle, as the URL of its module, if every source is unchanged; else null. */
export declare function keptEntryBundle(entry: URL): Promise<URL | null>;
/** The directory of the recorded bundle if it still holds for these sources, else null. */
export declare function keptBundle(path: string, esbuild: string): Promise<string | null>;
/** Written beside, then renamed into place: a process reading it sees a whole record. */
export declare function keepRecord(path: string, record: BundleRecord): Promise<void>;
/** The record at `path`, or null when there is none or it is not one. */
export declare function readRecord(path: string): Promise<(BundleRecord & { build: number }) | null>;
export declare function exists(path: string): Promise<boolean>;
