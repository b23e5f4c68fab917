export { FeaturedCarousel, type FeaturedCarouselProps } from './FeaturedCarousel.js';
export { FeaturedCard, featuredItemLink } from './FeaturedCard.js';
