/** Import rules: no cycles between modules or folders, and the layers point one way (api → projections → core). */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-circular-folders', severity: 'error', scope: 'folder', from: {}, to: { circular: true } },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|bench|docs)/' },
  },
};
