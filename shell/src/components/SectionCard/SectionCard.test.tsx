import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { SectionCard } from './SectionCard.js';

describe('SectionCard', () => {
  it('is a region named by its heading', () => {
    render(
      <SectionCard id="s-title" title="API tokens">
        <p>Body</p>
      </SectionCard>,
    );
    const region = screen.getByRole('region', { name: 'API tokens' });
    expect(region).toContainElement(screen.getByRole('heading', { name: 'API tokens', level: 2 }));
    expect(region).toHaveTextContent('Body');
  });
});
