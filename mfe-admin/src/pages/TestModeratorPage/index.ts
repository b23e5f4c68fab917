export { TestModeratorPage } from './TestModeratorPage.js';
