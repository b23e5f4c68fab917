export { DigestStats, digestCounts, type DigestCounts, type DigestStatsProps } from './DigestStats.js';
