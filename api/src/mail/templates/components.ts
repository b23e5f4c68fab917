/**
 * The react-email components the templates use, each from its own package: the umbrella @react-email/components also
 * loads Tailwind, a syntax highlighter and a Markdown renderer that no template uses, which cost every process that
 * loads the services over a second at start.
 */
export { Body } from '@react-email/body';
export { Button } from '@react-email/button';
export { Container } from '@react-email/container';
export { Head } from '@react-email/head';
export { Hr } from '@react-email/hr';
export { Html } from '@react-email/html';
export { Link } from '@react-email/link';
export { Preview } from '@react-email/preview';
export { Section } from '@react-email/section';
export { Text } from '@react-email/text';
