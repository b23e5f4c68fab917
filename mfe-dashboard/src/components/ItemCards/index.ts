export { ItemCards, type ItemCardsProps } from './ItemCards.js';
