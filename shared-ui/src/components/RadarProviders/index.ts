export { RadarProviders, type RadarProvidersProps } from './RadarProviders.js';
