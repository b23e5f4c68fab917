export { ContactFormsTab } from './ContactFormsTab.js';
