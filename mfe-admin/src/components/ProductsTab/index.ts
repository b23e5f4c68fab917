export { ProductsTab } from './ProductsTab.js';
export { DisplayNameEditor } from './DisplayNameEditor.js';
