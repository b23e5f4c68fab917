// The names a vendor barrel (./mui-core.mjs, ./mui-extra.mjs, ./mui-more.mjs, ./router.mjs) re-exports: its one `export { … }` list.
const fs = require('node:fs');
const path = require('node:path');

/** @param {string} file  a barrel in this folder, e.g. 'mui-core.mjs' */
function barrelNames(file) {
  const text = fs.readFileSync(path.join(__dirname, file), 'utf8');
  const list = /export\s*\{([^}]*)\}/.exec(text);
  if (!list) throw new Error(`${file} has no export { … } list`);
  return list[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

module.exports = { barrelNames };
