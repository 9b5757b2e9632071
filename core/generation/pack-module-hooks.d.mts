/** Registers the pack resolution hooks (core/generation/pack-module-hooks.mjs) in this thread, once. */
export declare function registerPackHooks(): void;
