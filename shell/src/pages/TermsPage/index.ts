export { TermsPage } from './TermsPage.js';
