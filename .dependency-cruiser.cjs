/**
 * The import rules of docs/architecture.md ("Layers"), checked by `npm run check:imports` (run by
 * `npm test`). A folder may import from the layers below it and from its own row, never from a
 * row above; no import may close a cycle. Type-only imports count: a type that runs up the layers
 * ties the lower folder to the upper one as surely as a value does.
 *
 * Keep LAYERS in the same order as the table in docs/architecture.md.
 *
 * Run it with `npm run check:imports` (scripts/check-imports.mjs), which adds the
 * '@searchbook/contracts/*' alias of extension/tsconfig.json: dependency-cruiser's own `tsConfig`
 * option resolves `paths` from the working directory when the tsconfig has no baseUrl, and
 * would find nothing there.
 */

/** Bottom first. Each entry: a name for messages and the paths (regular expressions) it holds. */
const LAYERS = [
  { name: 'contracts', paths: ['^contracts/'] },
  {
    name: 'json, protocol',
    paths: ['^kernel/src/json/', '^kernel/src/protocol/']
  },
  { name: 'console', paths: ['^kernel/src/console/'] },
  { name: 'driver-core', paths: ['^kernel/src/driver-core/'] },
  { name: 'engines/<name>', paths: ['^kernel/src/engines/[^/]+/'] },
  {
    name: 'engines/engine-registry.ts',
    paths: ['^kernel/src/engines/engine-registry\\.ts$']
  },
  { name: 'connections', paths: ['^kernel/src/connections/'] },
  {
    name: 'introspection, render, export',
    paths: [
      '^kernel/src/introspection/',
      '^kernel/src/render/',
      '^kernel/src/export/'
    ]
  },
  {
    name: 'execute, panel',
    paths: ['^kernel/src/execute/', '^kernel/src/panel/']
  },
  {
    name: 'handlers, kernel/src/*.ts, install',
    paths: [
      '^kernel/src/handlers/',
      '^kernel/src/[^/]+\\.ts$',
      '^kernel/src/install/'
    ]
  }
];

/** One rule per layer: nothing in it imports a layer above it. */
const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layers: ${layer.name} imports up`,
  comment: `${layer.name} may import only the layers below it in docs/architecture.md: move the shared type or function down to where both can reach it.`,
  severity: 'error',
  from: { path: layer.paths },
  to: { path: LAYERS.slice(index + 1).flatMap(above => above.paths) }
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment:
        'An import cycle (type-only imports included) ties its files into one unit: move the shared type or function to the lowest folder that needs it.',
      severity: 'error',
      // The sandbox engines' package (sandbox/) too: it has no layers of its own, but no loops either.
      from: {},
      to: { circular: true }
    },
    ...upward,
    {
      name: 'contracts: zod, fflate and itself only',
      comment:
        'contracts/ is shared by the kernel (Node) and the extension (browser): it imports zod, fflate (compressed answers) and its own files, nothing else.',
      severity: 'error',
      from: { path: '^contracts/' },
      to: {
        pathNot: ['^contracts/', '^node_modules/zod/', '^node_modules/fflate/']
      }
    },
    {
      name: 'engines: never another engine',
      comment:
        'What one engine knows stays in its folder: share it through kernel/src/driver-core/ instead.',
      severity: 'error',
      from: { path: '^kernel/src/engines/([^/]+)/' },
      to: { path: '^kernel/src/engines/', pathNot: '^kernel/src/engines/$1/' }
    },
    {
      name: 'engines: only through the registry',
      comment:
        'Engine folders are reached only through kernel/src/engines/engine-registry.ts: ask the engine module or a capability.',
      severity: 'error',
      from: { pathNot: ['^kernel/src/engines/'] },
      to: { path: '^kernel/src/engines/[^/]+/' }
    },
    {
      name: 'extension: contracts only',
      comment:
        'extension/src reaches outside itself only through @searchbook/contracts/... (and its npm packages), never kernel/.',
      severity: 'error',
      from: { path: '^extension/src/' },
      to: { pathNot: ['^extension/src/', '^contracts/', '^node_modules/'] }
    },
    {
      name: 'extension: contracts through the alias',
      comment:
        "extension/src imports contracts as '@searchbook/contracts/...', the path webpack and jest map, not as a relative path.",
      severity: 'error',
      from: { path: '^extension/src/' },
      to: { path: '^contracts/', dependencyTypesNot: ['aliased'] }
    },
    {
      name: 'kernel: never the extension',
      comment: 'The kernel runs in Node and never loads the extension.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: '^extension/' }
    },
    {
      name: 'product: never the sandbox',
      comment:
        'The sandbox engines are a package of their own (sandbox/) for demos and tests: the kernel, contracts and the extension never import it, so neither the kernel nor the wheel carries it. Reach it from tests, benchmarks or scripts instead.',
      severity: 'error',
      from: { path: ['^contracts/', '^kernel/', '^extension/'] },
      to: {
        path: [
          '^sandbox/',
          '^node_modules/@searchbook/sandbox/',
          '^node_modules/selfsigned/'
        ]
      }
    },
    {
      name: 'sandbox: a package of its own',
      comment:
        'sandbox/ stands in for engines the product talks to over sockets: it imports its own files, Node and its npm packages, never the product.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: {
        pathNot: ['^sandbox/', '^node_modules/'],
        dependencyTypesNot: ['core']
      }
    },
    {
      name: 'no-unresolvable',
      comment:
        'An import that does not resolve cannot be checked against the layers.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true }
    }
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    // Type-only imports count (`import type`, `import { type X }`).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.d.ts', '.js', '.json']
    },
    reporterOptions: { text: { highlightFocused: true } }
  }
};
