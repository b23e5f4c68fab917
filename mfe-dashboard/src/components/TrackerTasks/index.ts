export { TrackerTasks } from './TrackerTasks.js';
