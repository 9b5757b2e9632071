/**
 * Import rules (`npm run lint:imports`): no cycle between modules or between folders, and the layers point one
 * way: api and cli on top, projections below them, core at the bottom. The composition root
 * (core/services/) is the one module that wires every concept to its read models: nothing else imports it
 * from core, and the folder check does not follow it, since wiring everything is its job.
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-circular-folders', severity: 'error', scope: 'folder', from: {}, to: { circular: true } },
    {
      name: 'core-below-projections-and-api',
      comment: 'A concept that needs a read model declares a port in its own folder; core/services/ wires it.',
      severity: 'error',
      from: { path: '^core/', pathNot: '^core/services/' },
      to: { path: '^(api|cli|projections)/' },
    },
    {
      name: 'composition-root-on-top',
      severity: 'error',
      from: { path: '^(core|projections)/', pathNot: '^core/services/' },
      to: { path: '^core/services/' },
    },
    { name: 'projections-below-api', severity: 'error', from: { path: '^projections/' }, to: { path: '^(api|cli)/' } },
    {
      name: 'packs-use-the-sdk',
      comment: 'Built-in packs are written as third-party packs are: with the SDK only.',
      severity: 'error',
      from: { path: '^plugins/' },
      to: { path: '^(api|cli|core|projections)/', pathNot: '^core/packs/sdk[.]ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: ['node_modules', '^core/services/'] },
    exclude: { path: '^(node_modules|test|bench|docs)/' },
  },
};
