// After a remote's production build: copies dist/ into release/<folder>-<version>/ ('0.1.0-1a2b3c4d'), a self-contained folder named by
// the version its manifest states (package.json version + git commit), ready to upload to a static host or CDN
// (docs/operations.md, "Releasing a remote"). Keeps the newest few releases; release/ is not committed.
const fs = require('node:fs');
const path = require('node:path');

const KEEP = 3;

function release(appDir) {
  const dist = path.join(appDir, 'dist');
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
  const info = manifest.metaData && manifest.metaData.radar;
  if (!info || !info.version) throw new Error(`${dist}/mf-manifest.json states no version (metaData.radar)`);
  const releases = path.join(appDir, 'release');
  // '+' (semver build metadata) is read as a space by some object stores in a URL path: the folder uses '-'.
  const target = path.join(releases, `${path.basename(appDir)}-${info.version.replace(/\+/g, '-')}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(releases, { recursive: true });
  fs.cpSync(dist, target, { recursive: true });
  const older = fs
    .readdirSync(releases)
    .map((name) => path.join(releases, name))
    .filter((dir) => dir !== target && fs.statSync(dir).isDirectory())
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const dir of older.slice(KEEP - 1)) fs.rmSync(dir, { recursive: true, force: true });
  return target;
}

if (require.main === module) {
  process.stdout.write(`release folder: ${path.relative(process.cwd(), release(process.cwd()))}\n`);
}

module.exports = { release };
