export { PageContainer, type PageContainerProps } from './PageContainer.js';
