export { DateSlips, type DateSlipsProps } from './DateSlips.js';
export { datedMoves, moveSummaries, moveSummary } from './date-slips.js';
