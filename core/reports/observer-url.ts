/** The module the generation workers load to gather a chunk's statistics (chunk-observer.ts), as a URL. */
export const CHUNK_OBSERVER_URL = new URL(
  `./chunk-observer${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
).href;
