export { CommunityResources, type CommunityResourcesProps } from './CommunityResources.js';
