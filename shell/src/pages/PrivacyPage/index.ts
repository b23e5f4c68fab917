export { PrivacyPage } from './PrivacyPage.js';
