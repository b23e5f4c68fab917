/**
 * Whether a version satisfies an npm range, prereleases included: what `semver.satisfies(version, range,
 * { includePrerelease: true })` answers (checked against it in version-range.test.ts), in a few hundred bytes. The
 * shell runs it before it loads a remote; the `semver` package's Range machinery was 18 KB of that page's script.
 * The full range grammar: `||`, hyphen ranges, `<`/`<=`/`>`/`>=`/`=`, `~`, `^`, `x`/`*` and partial versions.
 */

type Version = [major: number, minor: number, patch: number, prerelease: (string | number)[]];
type Comparator = [operator: '<' | '<=' | '>' | '>=' | '=', version: Version];

const NUMBER = '0|[1-9]\\d*';
const IDENTIFIER = `(?:${NUMBER}|\\d*[a-zA-Z-][a-zA-Z0-9-]*)`;
const PRERELEASE = `(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?`;
const FULL = new RegExp(`^v?(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})${PRERELEASE}$`);
const X = `${NUMBER}|x|X|\\*`;
const PARTIAL = `[v=\\s]*(${X})(?:\\.(${X})(?:\\.(${X})${PRERELEASE})?)?`;
const SIMPLE = new RegExp(`^(~>?|\\^|[<>]?=?)${PARTIAL}$`);
const HYPHEN = new RegExp(`^\\s*${PARTIAL}\\s+-\\s+${PARTIAL}\\s*$`);

const isX = (part: string | undefined) => !part || part === 'x' || part === 'X' || part === '*';
const prereleaseOf = (text: string | undefined) => (text ? text.split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : []);
const LOWEST: (string | number)[] = [0];
const v = (major: number, minor: number, patch: number, prerelease: (string | number)[] = []): Version => [major, minor, patch, prerelease];

function parseVersion(text: string): Version | null {
  const m = FULL.exec(text.trim());
  return m ? v(Number(m[1]), Number(m[2]), Number(m[3]), prereleaseOf(m[4])) : null;
}

function compareIds(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  const [pa, pb] = [a[3], b[3]];
  if (!pa.length || !pb.length) return pb.length - pa.length;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (pa[i] === undefined || pb[i] === undefined) return pa[i] === undefined ? -1 : 1;
    const order = compareIds(pa[i], pb[i]);
    if (order) return order;
  }
  return 0;
}

/** One comparator of a range (`^1.2`, `>=2`, `1.x`) as the comparators it stands for; null when it is not one. */
function desugar(text: string): Comparator[] | null {
  const m = SIMPLE.exec(text);
  if (!m) return null;
  const [, op, M, mi, p, pr] = m;
  const tilde = op.startsWith('~') || op === '^';
  // `^x.1` is any version to semver; `x.1` (or `>x.1`) is not a range.
  if (tilde && isX(M)) return [];
  if ((isX(M) && !isX(mi)) || (isX(mi) && !isX(p))) return null;
  const [maj, min, pat] = [Number(M), Number(mi), Number(p)];
  if (isX(M)) return op === '<' || op === '>' ? [['<', v(0, 0, 0, LOWEST)]] : [];
  if (tilde) {
    const from = isX(mi) ? v(maj, 0, 0, LOWEST) : isX(p) ? v(maj, min, 0, LOWEST) : v(maj, min, pat, prereleaseOf(pr));
    let to: Version;
    if (isX(mi)) to = v(maj + 1, 0, 0, LOWEST);
    else if (op !== '^' || (maj === 0 && (isX(p) || min !== 0))) to = v(maj, min + 1, 0, LOWEST);
    else if (maj === 0) to = v(0, 0, pat + 1, LOWEST);
    else to = v(maj + 1, 0, 0, LOWEST);
    return [
      ['>=', from],
      ['<', to],
    ];
  }
  if (!isX(p)) return [[(op || '=') as Comparator[0], v(maj, min, pat, prereleaseOf(pr))]];
  const minor = isX(mi) ? 0 : min;
  if (op === '>') return [['>=', isX(mi) ? v(maj + 1, 0, 0, LOWEST) : v(maj, min + 1, 0, LOWEST)]];
  if (op === '<=') return [['<', isX(mi) ? v(maj + 1, 0, 0, LOWEST) : v(maj, min + 1, 0, LOWEST)]];
  if (op === '<') return [['<', v(maj, minor, 0, LOWEST)]];
  if (op === '>=') return [['>=', v(maj, minor, 0, LOWEST)]];
  return [
    ['>=', v(maj, minor, 0, LOWEST)],
    ['<', isX(mi) ? v(maj + 1, 0, 0, LOWEST) : v(maj, min + 1, 0, LOWEST)],
  ];
}

/** A hyphen range (`1.2 - 2.3.4`) as comparators. */
function hyphen(m: RegExpExecArray): Comparator[] | null {
  const [, fM, fm, fp, fpr, tM, tm, tp, tpr] = m;
  if ((isX(fM) && !isX(fm)) || (isX(fm) && !isX(fp)) || (isX(tM) && !isX(tm)) || (isX(tm) && !isX(tp))) return null;
  const out: Comparator[] = [];
  if (!isX(fM)) out.push(['>=', v(+fM, isX(fm) ? 0 : +fm, isX(fp) ? 0 : +fp, fpr ? prereleaseOf(fpr) : LOWEST)]);
  if (isX(tM)) return out;
  if (isX(tm)) out.push(['<', v(+tM + 1, 0, 0, LOWEST)]);
  else if (isX(tp)) out.push(['<', v(+tM, +tm + 1, 0, LOWEST)]);
  else if (tpr) out.push(['<=', v(+tM, +tm, +tp, prereleaseOf(tpr))]);
  else out.push(['<', v(+tM, +tm, +tp + 1, LOWEST)]);
  return out;
}

function test([op, bound]: Comparator, version: Version): boolean {
  const order = compare(version, bound);
  return op === '=' ? order === 0 : op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
}

/** True when `version` is in `range`; false when either is not valid. */
export function satisfiesRange(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  const sets: Comparator[][] = [];
  for (const part of range.split('||')) {
    const hyphenated = HYPHEN.exec(part);
    if (hyphenated) {
      const set = hyphen(hyphenated);
      if (!set) return false;
      sets.push(set);
      continue;
    }
    const words = part
      .trim()
      .replace(/(~>?|\^|[<>]=?|=)\s+(?=[v\dxX*])/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    const set: Comparator[] = [];
    for (const word of words) {
      const comparators = desugar(word);
      if (!comparators) return false;
      set.push(...comparators);
    }
    sets.push(set);
  }
  return sets.some((set) => set.every((comparator) => test(comparator, parsed)));
}
