export { TrackersTab } from './TrackersTab.js';
