export { ContactPage } from './ContactPage.js';
