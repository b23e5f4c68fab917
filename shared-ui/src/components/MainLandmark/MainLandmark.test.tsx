import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { Container } from '@mui/material';
import { MainLandmark } from './MainLandmark.js';

describe('MainLandmark', () => {
  it('is the page’s one <main id="main">, focusable by the skip link; one inside it is a plain div', () => {
    render(
      <MainLandmark data-testid="outer">
        <Container component={MainLandmark} data-testid="inner">
          <h1>Page</h1>
        </Container>
      </MainLandmark>,
    );
    expect(screen.getAllByRole('main')).toHaveLength(1);
    const main = screen.getByRole('main');
    expect(main).toHaveAttribute('id', 'main');
    expect(main).toHaveAttribute('tabindex', '-1');
    expect(screen.getByTestId('inner').tagName).toBe('DIV');
    expect(screen.getByTestId('inner')).not.toHaveAttribute('id');
  });

  it('renders the landmark for a page on its own (a remote run alone)', () => {
    render(<Container component={MainLandmark}>content</Container>);
    expect(screen.getByRole('main')).toHaveTextContent('content');
  });
});
