// One place for the module-federation setup every app shares: the shared singletons (with explicit versions)
// and the webpack config factory the four webpack.config.ts files call. Plain CommonJS so any config format
// (webpack.config.ts via tsx, .mjs, .cjs) can load it without a build step.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const webpack = require('webpack');
// webpack 5.111 ships its minimizer as minimizer-webpack-plugin (the former terser-webpack-plugin).
const MinimizerPlugin = require('minimizer-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');
const { sharedModules, sharingAliases, sharingRules, sharedLibraryRanges, sharedLibraryVersions } = require('./sharing.cjs');

/** Federation names of the remotes, keyed by the short name runtime config uses. */
const REMOTE_NAMES = { dashboard: 'radar_dashboard', admin: 'radar_admin', digest: 'radar_digest' };
const HOST_NAME = 'radar_shell';
/** Dev-server ports; each dev server proxies /api to the api on 8080. */
const DEV_PORTS = { shell: 3000, dashboard: 3001, admin: 3002, digest: 3003 };
const API_DEV_URL = 'http://localhost:8080';

const repoRoot = path.resolve(__dirname, '..');

/**
 * The host's framework libraries in one chunk: React and react-dom, emotion, the router, SWR and zustand. Every page
 * needs all of them before its first render; as shared modules each was its own chunk (with the pieces they share,
 * eleven files of 0.6 to 200 KB), fetched over the browser's six connections per host and each inserted and run on
 * its own. MUI keeps its own chunks (its extra part loads only with the screens that use it). docs/frontend.md.
 */
const FRAMEWORK_CHUNK = {
  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-is|@emotion[\\/][^\\/]+|stylis|hoist-non-react-statics|@babel[\\/]runtime|react-router|react-router-dom|cookie|set-cookie-parser|swr|use-sync-external-store|dequal|zustand)[\\/]/,
  name: 'framework',
  chunks: 'async',
  enforce: true,
  priority: 40,
};

/** Our packages' TypeScript sources (contracts by source, as its NodeNext `./x.js` specifiers name `./x.ts`). */
const CONTRACTS_ALIASES = {
  '@radar/contracts$': path.join(repoRoot, 'contracts/src/index.ts'),
  '@radar/contracts/zod-config$': path.join(repoRoot, 'contracts/src/zod-config.ts'),
};

/** Our TypeScript and TSX through swc. */
function sourceRule(mode) {
  return {
    test: /\.[cm]?[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'swc-loader',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          target: 'es2022',
          transform: { react: { runtime: 'automatic', development: mode === 'development' } },
        },
      },
    },
  };
}

/**
 * Builds the webpack config of one app.
 * @param {object} options
 * @param {string} options.dirname  the app's folder
 * @param {'shell'|'dashboard'|'admin'|'digest'} options.app
 * @param {string} options.title  page title of the (standalone) HTML
 * @param {(app: import('express').Application) => void} [options.devMiddleware]  extra dev-server routes
 */
function createAppConfig({ dirname, app, title, devMiddleware, themeStylesheet }) {
  const isHost = app === 'shell';
  const theme = themeStylesheet === undefined ? undefined : staticStylesheet('theme', themeStylesheet);
  return (_env, argv) => {
    const mode = argv.mode === 'development' ? 'development' : 'production';
    const build = buildInfo(dirname, app, isHost ? sharedLibraryVersions() : sharedLibraryRanges());
    const federation = isHost
      ? { name: HOST_NAME, remotes: {} }
      : {
          name: REMOTE_NAMES[app],
          filename: 'remoteEntry.js',
          exposes: { './App': './src/App.tsx' },
          // The build's version and shared-library ranges, which the shell checks before loading it.
          manifest: { additionalData: ({ stats }) => ({ ...stats, metaData: { ...stats.metaData, radar: build } }) },
        };
    return {
      mode,
      context: dirname,
      entry: { main: './src/index.ts' },
      devtool: mode === 'development' ? 'eval-cheap-module-source-map' : 'source-map',
      output: {
        path: path.join(dirname, 'dist'),
        // Deep links need absolute chunk URLs on the host; remotes find their own URL wherever they are served.
        publicPath: isHost ? '/' : 'auto',
        // The federation runtime interpolates output.filename without a chunk, so entry files cannot carry a hash;
        // html-webpack-plugin's `hash` adds a cache-busting query instead. Lazy chunks keep content hashes.
        filename: '[name].js',
        chunkFilename: mode === 'production' ? '[name].[contenthash:8].js' : '[name].js',
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
        // contracts source uses NodeNext-style `./x.js` specifiers for `./x.ts` files.
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        alias: { ...CONTRACTS_ALIASES, ...sharingAliases() },
      },
      module: {
        // A name missing from a vendor barrel (see sharing.cjs) must fail the build, not become undefined at run time.
        parser: { javascript: { exportsPresence: 'error' } },
        rules: [...sharingRules(), sourceRule(mode)],
      },
      // swc's minifier: much faster than terser on these bundles.
      optimization: {
        minimize: mode === 'production',
        minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify })],
        ...(isHost && mode === 'production' ? { splitChunks: { cacheGroups: { framework: FRAMEWORK_CHUNK } } } : {}),
      },
      plugins: [
        new ModuleFederationPlugin({
          ...federation,
          shared: sharedModules(),
          shareStrategy: 'loaded-first',
          dts: false,
          // Browser-only runtime; a remote never loads other remotes, so its copy of the federation runtime (every
          // remoteEntry.js carries one) leaves out remote loading and manifest snapshots.
          experiments: { optimization: isHost ? { target: 'web' } : { target: 'web', disableRemote: true, disableSnapshot: true } },
        }),
        // The app's own version in its code (shown in the page), and for the shell the versions it provides.
        new webpack.DefinePlugin({
          __RADAR_APP_VERSION__: JSON.stringify(build.version),
          ...(isHost ? { __RADAR_SHELL_SHARED__: JSON.stringify(build.shared) } : {}),
        }),
        ...(isHost ? [buildInfoAsset(build)] : []),
        new HtmlWebpackPlugin({
          template: path.join(__dirname, 'index.html'),
          // The tab's icon, declared so the browser does not ask for /favicon.ico (a 404 on every first visit).
          favicon: path.join(__dirname, 'favicon.svg'),
          title,
          chunks: ['main'],
          publicPath: '/',
          hash: mode === 'production',
          // A static stylesheet the page links in <head> (the theme's variables): index.html writes this tag.
          headLinks: theme ? `<link rel="stylesheet" href="/${theme.file}" ${THEME_STYLESHEET_ATTRIBUTE}>` : '',
        }),
        ...(theme ? [theme.plugin] : []),
        ...(mode === 'production' ? precompress() : []),
      ],
      performance: { hints: false },
      stats: mode === 'production' ? 'summary' : 'minimal',
      devServer: {
        port: DEV_PORTS[app],
        historyApiFallback: true,
        hot: false,
        liveReload: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        // Every app proxies /api, so a remote running standalone talks to the api like the shell does.
        proxy: [{ context: ['/api'], target: API_DEV_URL, changeOrigin: false }],
        setupMiddlewares: (middlewares, server) => {
          if (devMiddleware && server.app) devMiddleware(server.app);
          return middlewares;
        },
      },
    };
  };
}

/**
 * The shell's server render (shell/src/server/render-page.tsx) as one CommonJS file for Node, which the api loads:
 * the shell, shared-ui and the remotes' ./App it renders, bundled from source without module federation (one copy
 * of every library, nothing loaded at run time). Dynamic imports stay in the one file.
 * @param {object} options
 * @param {string} options.dirname  the shell's folder
 * @param {Record<string, string>} options.remotes  remote name → the app folder whose ./App the render bundles
 */
function createServerRenderConfig({ dirname, remotes }) {
  return (_env, argv) => {
    const mode = argv.mode === 'development' ? 'development' : 'production';
    const remoteAliases = Object.fromEntries(
      Object.entries(remotes).map(([name, dir]) => [`@radar/ssr-remote/${name}$`, path.join(repoRoot, dir, 'src', 'App.tsx')]),
    );
    // The version each bundled remote's own build states in its manifest (metaData.radar.version, same sources and
    // commit): the api renders a remote's page only while the remote it serves is that version.
    const remoteVersions = Object.fromEntries(
      Object.entries(remotes).map(([name, dir]) => [name, buildInfo(path.join(repoRoot, dir), name, sharedLibraryRanges()).version]),
    );
    return {
      mode,
      target: 'node20',
      context: dirname,
      entry: { 'render-page': './src/server/render-page.tsx' },
      devtool: 'source-map',
      output: { path: path.join(dirname, 'dist-server'), filename: '[name].cjs', library: { type: 'commonjs2' }, clean: true },
      resolve: {
        extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        // Node's conditions (webpack's default for a node target): emotion's server build, not its browser one.
        alias: { ...CONTRACTS_ALIASES, ...remoteAliases },
      },
      module: { parser: { javascript: { exportsPresence: 'error' } }, rules: [sourceRule(mode)] },
      // A server file: no minifying (stack traces stay readable), one chunk.
      optimization: { minimize: false },
      plugins: [
        new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
        new webpack.DefinePlugin({
          __RADAR_SSR_REMOTE_VERSIONS__: JSON.stringify(remoteVersions),
          // A bundled remote's code reads its own version as its own build defines it (the admin page shows it), so
          // the server's markup is the browser's; code of no remote reads none.
          __RADAR_APP_VERSION__: webpack.DefinePlugin.runtimeValue(({ module }) => {
            const owner = Object.entries(remotes).find(([, dir]) => (module.resource ?? '').startsWith(path.join(repoRoot, dir) + path.sep));
            return owner ? JSON.stringify(remoteVersions[owner[0]]) : 'undefined';
          }, true),
        }),
      ],
      performance: { hints: false },
      stats: mode === 'production' ? 'summary' : 'minimal',
    };
  };
}

/**
 * Brotli (quality 11) and gzip (level 9) copies of every script and manifest beside the original, which the api serves
 * by Accept-Encoding (api/src/http/static-bundles.ts). Compressed once at build instead of per request, at the
 * highest levels (too slow to run per request). Source maps are skipped: only developer tools fetch them.
 */
function precompress() {
  const common = { test: /\.(js|json|css|svg|txt)$/, threshold: 1024, minRatio: 0.9 };
  return [
    new CompressionPlugin({ ...common, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
  ];
}

/**
 * `{ app, version, commit, shared }`: version from the app's package.json plus the git commit (`0.1.0+1a2b3c4d`;
 * RADAR_BUILD_COMMIT overrides it where the tree has no git), `shared` the ranges (remotes) or versions (shell).
 */
function buildInfo(dirname, app, shared) {
  const { version } = require(path.join(dirname, 'package.json'));
  let commit = process.env.RADAR_BUILD_COMMIT;
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', '--short=8', 'HEAD'], { cwd: dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      commit = 'nogit';
    }
  }
  return { app, version: `${version}+${commit}`, commit, shared };
}

/** shell/dist/radar-build.json: what the api's Test button compares a remote's ranges with. */
/** The attribute the theme's <link> carries (shared-ui's THEME_STYLESHEET_ATTRIBUTE looks for it). */
const THEME_STYLESHEET_ATTRIBUTE = 'data-radar-theme';

/**
 * A stylesheet made at build time, emitted as `<name>.<content hash>.css` (served immutable, precompressed like the
 * chunks), and its file name for the page's <link>.
 */
function staticStylesheet(name, css) {
  const file = `${name}.${require('node:crypto').createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
  const plugin = {
    apply(compiler) {
      compiler.hooks.thisCompilation.tap('RadarStaticStylesheet', (compilation) => {
        compilation.hooks.processAssets.tap({ name: 'RadarStaticStylesheet', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
          compilation.emitAsset(file, new compiler.webpack.sources.RawSource(css));
        });
      });
    },
  };
  return { file, plugin };
}

function buildInfoAsset(build) {
  return {
    apply(compiler) {
      compiler.hooks.thisCompilation.tap('RadarBuildInfo', (compilation) => {
        compilation.hooks.processAssets.tap({ name: 'RadarBuildInfo', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
          compilation.emitAsset('radar-build.json', new compiler.webpack.sources.RawSource(`${JSON.stringify(build, null, 2)}\n`));
        });
      });
    },
  };
}

/** The runtime config the shell dev server answers at /config.json (remotes on their own dev servers). */
function devRuntimeConfig() {
  const remote = (app) => `http://localhost:${DEV_PORTS[app]}/mf-manifest.json`;
  return {
    remotes: { dashboard: remote('dashboard'), admin: remote('admin'), digest: remote('digest') },
    supportEmail: 'support@m365radar.local',
    sisterProductUrl: 'https://example.com/',
    sisterProductName: 'Sister product',
  };
}

module.exports = { sharedModules, createAppConfig, createServerRenderConfig, devRuntimeConfig, buildInfo, REMOTE_NAMES, HOST_NAME, DEV_PORTS };
