/** Registers the pack resolution hooks (module-hooks.mjs) in this thread, once. */
export declare function registerPackHooks(): void;
