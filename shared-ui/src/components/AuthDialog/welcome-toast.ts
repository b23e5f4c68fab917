import { PRODUCT_NAME } from '@radar/contracts';

/** The toast shown after the reload that follows a successful sign-in. */
export const WELCOME_TOAST = {
  title: 'Successfully signed in',
  description: `Welcome to ${PRODUCT_NAME}! You can now set up notification subscriptions for roadmap and Message Center items.`,
};
