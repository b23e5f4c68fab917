export { VersionCompare, type VersionCompareProps } from './VersionCompare.js';
export { WordDiff } from './WordDiff.js';
