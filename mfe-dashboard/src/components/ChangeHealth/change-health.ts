// The score's bands, note and cost lines are the same on every screen (contracts change-health.ts).
export { CHANGE_HEALTH_NOTE, changeHealthBandOf, changeHealthCostLine as costLine, type ChangeHealthBand } from '@radar/contracts';
