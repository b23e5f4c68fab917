// What host and remotes share at run time, and the webpack resolve/module settings that make it work. Used by
// ./federation.cjs for all four apps.
//
// Singletons (one instance for host and remotes): React, react-dom, emotion, SWR, zustand and @radar/shared-ui (so
// stores, contexts, the emotion cache and the theme are the same objects everywhere), and React Router.
//
// A shared module is never tree-shaken (a consumer built later may use any export), so sharing @mui/material or
// react-router whole ships all of each (~520 KB and ~190 KB minified). Instead each is shared as a barrel of the
// names the apps use (./vendor/*.mjs), built from the real package with tree-shaking:
// - React Router: one singleton barrel under both package names.
// - MUI: three barrels, core (what every first paint needs), extra (dialogs, menus, tables, forms…), loaded the
//   first time a screen needs it, and rare (heavy parts only screens opened on demand use: Autocomplete). Apps keep writing `import { X } from '@mui/material'`: that resolves to a
//   generated barrel (./vendor/mui.mjs) that re-exports each name from the part providing it. One copy of MUI's
//   internals (the modal manager that stacks a remote's dialog under the shell's sign-in dialog, its contexts)
//   comes with the shell's barrels. Each barrel's version carries a hash of its list: a remote built with a list
//   the shell lacks uses its own copy of that part instead of finding a name missing (its dialogs then have their
//   own modal stack: deploy the shell first when a list changes).
const { createHash } = require('node:crypto');
const path = require('node:path');
const sharedUiPackage = require('../shared-ui/package.json');
const { barrelNames } = require('./vendor/names.cjs');

const deps = sharedUiPackage.dependencies;
const vendor = (file) => path.join(__dirname, 'vendor', file);
const installedVersion = (pkg) => require(`${pkg}/package.json`).version;
const singleton = (requiredVersion) => ({ singleton: true, requiredVersion });

/** `9.5.0-radar.h1a2b3c4d`: the MUI version plus a hash of the barrel's list (a prerelease tag: ranges like ^9.5.0 skip it). */
function muiBarrelVersion(file) {
  const hash = createHash('sha256').update(barrelNames(file).join(',')).digest('hex').slice(0, 8);
  return `${installedVersion('@mui/material')}-radar.h${hash}`;
}

function sharedModules() {
  const muiBarrel = (file) => {
    const version = muiBarrelVersion(file);
    return { import: vendor(file), version, requiredVersion: version, singleton: false, strictVersion: true };
  };
  const router = (shareKey) => ({
    import: vendor('router.mjs'),
    shareKey,
    version: installedVersion('react-router'),
    ...singleton(deps['react-router']),
  });
  return {
    react: singleton(deps.react),
    'react/jsx-runtime': singleton(deps.react),
    'react/jsx-dev-runtime': singleton(deps.react),
    'react-dom': singleton(deps['react-dom']),
    'react-dom/client': singleton(deps['react-dom']),
    // Both package names consume the one barrel (react-router-dom 7 only re-exports react-router).
    'react-router': router('react-router'),
    'react-router-dom': router('react-router'),
    '@radar/vendor-mui-core': muiBarrel('mui-core.mjs'),
    '@radar/vendor-mui-extra': muiBarrel('mui-extra.mjs'),
    '@radar/vendor-mui-more': muiBarrel('mui-more.mjs'),
    '@radar/vendor-mui-rare': muiBarrel('mui-rare.mjs'),
    '@emotion/react': singleton(deps['@emotion/react']),
    '@emotion/styled': singleton(deps['@emotion/styled']),
    swr: singleton(deps.swr),
    zustand: singleton(deps.zustand),
    '@radar/shared-ui': singleton(`^${sharedUiPackage.version}`),
  };
}

/**
 * resolve.alias: app code's `@mui/material` → the routing barrel; the vendor barrels reach the real packages under
 * private names, which no share key matches (a barrel importing a shared name would consume itself).
 */
function sharingAliases() {
  return {
    '@mui/material$': vendor('mui.mjs'),
    'radar-vendor/mui$': path.join(path.dirname(require.resolve('@mui/material/package.json')), 'index.mjs'),
    'radar-vendor/react-router$': 'react-router',
  };
}

/** module.rules: render the routing barrel; the barrels have no side effects, so unused names and parts drop out. */
function sharingRules() {
  return [
    { test: vendor('mui.mjs'), use: vendor('mui-loader.cjs') },
    { test: /[\\/]build-config[\\/]vendor[\\/].*\.mjs$/, sideEffects: false },
  ];
}

/**
 * The ranges of the shared libraries a remote is built against, written into its manifest (metaData.radar.shared): the
 * shell refuses a remote whose ranges its own versions do not satisfy (sharedMismatches in @radar/contracts).
 */
function sharedLibraryRanges() {
  return {
    react: deps.react,
    'react-router': deps['react-router'],
    '@mui/material': deps['@mui/material'],
    '@radar/shared-ui': `^${sharedUiPackage.version}`,
    '@radar/contracts': `^${require('../contracts/package.json').version}`,
  };
}

/** The versions of the same libraries the shell provides (its singletons, and the contracts it was built with). */
function sharedLibraryVersions() {
  return {
    react: installedVersion('react'),
    'react-router': installedVersion('react-router'),
    '@mui/material': installedVersion('@mui/material'),
    '@radar/shared-ui': sharedUiPackage.version,
    '@radar/contracts': require('../contracts/package.json').version,
  };
}

module.exports = { sharedModules, sharingAliases, sharingRules, sharedLibraryRanges, sharedLibraryVersions };
