import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { UserAvatar, avatarInitials } from './UserAvatar.js';

describe('avatar rules', () => {
  it('uses initials of first and last name', () => {
    expect(avatarInitials({ firstName: 'ada', lastName: 'Lovelace', email: 'x@y.z' })).toBe('AL');
  });
  it('falls back to the first letter of the e-mail, then U', () => {
    expect(avatarInitials({ firstName: null, lastName: null, email: 'grace@example.com' })).toBe('G');
    expect(avatarInitials({ firstName: '', lastName: '', email: '' })).toBe('U');
    expect(avatarInitials(null)).toBe('U');
  });
  it('shows the profile image when there is one', () => {
    render(<UserAvatar user={{ firstName: 'Ada', lastName: 'Lovelace', email: 'a@b.c', profileImageUrl: 'https://img.test/a.png' }} />);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute('src', 'https://img.test/a.png');
  });
  it('shows initials without an image', () => {
    render(<UserAvatar user={{ firstName: 'Ada', lastName: 'Lovelace', email: 'a@b.c', profileImageUrl: null }} />);
    expect(screen.getByText('AL')).toBeInTheDocument();
  });
});
