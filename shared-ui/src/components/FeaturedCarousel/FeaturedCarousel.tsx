import { useState } from 'react';
import { Box, IconButton, Stack, useMediaQuery, useTheme } from '@mui/material';
import { type FeaturedItem } from '@radar/contracts';
import { CAROUSEL_CARDS_PER_SLIDE } from '../../presentation/ui-constants.js';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons.js';
import { FeaturedCard } from './FeaturedCard.js';

export interface FeaturedCarouselProps {
  items: FeaturedItem[];
  /** Accessible name of the carousel region. */
  label?: string;
}

/**
 * 3 cards per slide side by side, previous/next arrows and dots whenever it shows, even with one slide; the index wraps
 * around. Below the md breakpoint the cards stack, so a slide is one card (three stacked cards put the arrows halfway
 * down a phone's screen). A change of width keeps the first card shown in view. Renders nothing when empty.
 */
export function FeaturedCarousel({ items, label = 'Featured items' }: FeaturedCarouselProps) {
  const theme = useTheme();
  const perSlide = useMediaQuery(theme.breakpoints.down('md')) ? 1 : CAROUSEL_CARDS_PER_SLIDE;
  // The first card shown, not the slide number: it survives a change of cards per slide.
  const [first, setFirst] = useState(0);
  if (!items.length) return null;
  const slides = Math.ceil(items.length / perSlide);
  const current = Math.floor((first % items.length) / perSlide);
  const go = (to: number) => setFirst((((to % slides) + slides) % slides) * perSlide);
  const visible = items.slice(current * perSlide, (current + 1) * perSlide);

  return (
    <Box component="section" aria-roledescription="carousel" aria-label={label}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <IconButton aria-label="Previous featured items" onClick={() => go(current - 1)}>
          <ChevronLeftIcon />
        </IconButton>
        <Box
          role="group"
          aria-roledescription="slide"
          aria-label={`Slide ${current + 1} of ${slides}`}
          sx={{ flex: 1, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}
        >
          {visible.map((item) => (
            <FeaturedCard key={item.id} item={item} />
          ))}
        </Box>
        <IconButton aria-label="Next featured items" onClick={() => go(current + 1)}>
          <ChevronRightIcon />
        </IconButton>
      </Box>
      <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'center', mt: 2 }}>
        {Array.from({ length: slides }, (_, i) => (
          // A 24 px target (WCAG 2.2 target size) around the visible dot.
          <Box
            key={i}
            component="button"
            type="button"
            aria-label={`Go to slide ${i + 1}`}
            aria-current={i === current ? 'true' : undefined}
            onClick={() => go(i)}
            sx={{
              minWidth: 24,
              height: 24,
              p: 0,
              border: 0,
              bgcolor: 'transparent',
              cursor: 'pointer',
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            <Box
              component="span"
              sx={{
                width: i === current ? 24 : 10,
                height: 10,
                borderRadius: 5,
                bgcolor: i === current ? 'primary.main' : 'action.disabled',
                transition: 'width 150ms',
              }}
            />
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
