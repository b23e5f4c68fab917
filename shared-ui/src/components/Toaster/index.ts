export { Toaster } from './Toaster.js';
