/**
 * The api's layers, checked by `npm run lint` (dependency-cruiser). Features sit on the infrastructure (lib, db, http,
 * mail, outbox, sources) and never the other way round. Among features, ingestion (sync) and the tenant rules know nothing
 * of the features that react to them: those subscribe (snapshot reactors, the AccessNarrowed reactor, the sync's
 * onItemsChanged hook) and are wired in services.ts, as relevance is (the hook and the tenant job refresh it). Trackers
 * build on triage; triage reaches them only through its TrackerPort. Triage builds on the list; the list reaches
 * triage only through the TriageLens it is handed.
 * docs/architecture.md, "Layers", draws the picture; test/layers.test.ts proves a breach fails.
 */
const FEATURES = '^src/features';
module.exports = {
  forbidden: [
    {
      name: 'infrastructure-imports-feature',
      comment: 'lib, db, mail, outbox, sources and http are the ground floor: they must not know the features built on them.',
      severity: 'error',
      from: { path: '^src/(lib|db|mail|outbox|sources)/' },
      to: { path: `${FEATURES}/` },
    },
    {
      name: 'sync-imports-reactor',
      comment: 'Ingestion records what changed; the features that react subscribe to it (snapshot-reactor.ts, onItemsChanged).',
      severity: 'error',
      from: { path: `${FEATURES}/sync/` },
      to: { path: `${FEATURES}/(triage|trackers|alerts|subscriptions|digest|feeds|mcp|curation|unsubscribe)/` },
    },
    {
      name: 'ingestion-imports-relevance',
      comment:
        "Relevance reacts to what ingestion reads (a tenant's sync, a sync's changes), wired in services.ts and the tenant job; the list reads its rows by SQL (items/relevance-sql.ts).",
      severity: 'error',
      from: { path: `${FEATURES}/(sync|tenants|usage|items|service-health)/` },
      to: { path: `${FEATURES}/relevance/` },
    },
    {
      name: 'triage-imports-trackers',
      comment: 'Trackers build on triage; triage asks them through its TrackerPort (features/triage/tracker-port.ts).',
      severity: 'error',
      from: { path: `${FEATURES}/triage/` },
      to: { path: `${FEATURES}/trackers/` },
    },
    {
      name: 'tenants-imports-reactor',
      comment: 'Who sees which tenant is decided in tenants; the features that hold work for people react to AccessNarrowed.',
      severity: 'error',
      from: { path: `${FEATURES}/(tenants|admin/user-roles)/` },
      to: { path: `${FEATURES}/(triage|trackers|alerts|subscriptions|digest|sync)/` },
    },
    {
      name: 'feature-cycle',
      comment: 'No import cycle that runs through two feature folders.',
      severity: 'error',
      from: { path: `${FEATURES}/([^/]+)/` },
      to: { path: `${FEATURES}/`, pathNot: `${FEATURES}/$1/`, circular: true },
    },
    {
      name: 'src-imports-tests',
      comment: 'Product code never loads test code.',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '(^test/|\\.test\\.tsx?$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|dist|\\.test\\.tsx?$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
