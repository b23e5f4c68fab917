export { SectionCard, type SectionCardProps } from './SectionCard.js';
