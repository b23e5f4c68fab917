export { Footer } from './Footer.js';
