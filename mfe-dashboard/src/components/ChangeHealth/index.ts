export { ChangeHealthChip, useChangeHealth, type ChangeHealthChipProps } from './ChangeHealthChip.js';
export { CHANGE_HEALTH_NOTE, changeHealthBandOf, costLine, type ChangeHealthBand } from './change-health.js';
export { ScoreSparkline, trendLabel } from './ScoreSparkline.js';
