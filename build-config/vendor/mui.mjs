// What `@mui/material` resolves to in the apps' webpack builds. Its content is rendered at build time by
// ./mui-loader.cjs from the lists in ./mui-core.mjs, ./mui-extra.mjs, ./mui-more.mjs and ./mui-rare.mjs; this file only gives the loader a path.
export {};
