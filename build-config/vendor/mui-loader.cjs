// Webpack loader rendering ./mui.mjs, which every app's `import { X } from '@mui/material'` resolves to: each name
// re-exported from the shared module that provides it: core, extra, more or rare. Named re-exports from a side-effect-free
// module let webpack link each import straight to its provider, so a screen that uses only core names never waits
// for the extra part.
const path = require('node:path');
const { barrelNames } = require('./names.cjs');

module.exports = function renderMuiBarrel() {
  this.addDependency(path.join(__dirname, 'mui-core.mjs'));
  this.addDependency(path.join(__dirname, 'mui-extra.mjs'));
  this.addDependency(path.join(__dirname, 'mui-more.mjs'));
  this.addDependency(path.join(__dirname, 'mui-rare.mjs'));
  return [
    `export { ${barrelNames('mui-core.mjs').join(', ')} } from '@radar/vendor-mui-core';`,
    `export { ${barrelNames('mui-extra.mjs').join(', ')} } from '@radar/vendor-mui-extra';`,
    `export { ${barrelNames('mui-more.mjs').join(', ')} } from '@radar/vendor-mui-more';`,
    `export { ${barrelNames('mui-rare.mjs').join(', ')} } from '@radar/vendor-mui-rare';`,
    '',
  ].join('\n');
};
