export { ThemeToggle } from './ThemeToggle.js';
