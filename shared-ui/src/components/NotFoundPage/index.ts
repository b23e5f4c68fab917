export { NotFoundPage } from './NotFoundPage.js';
