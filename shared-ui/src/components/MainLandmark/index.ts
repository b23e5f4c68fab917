export { MainLandmark } from './MainLandmark.js';
