export { DeleteIconButton, type DeleteIconButtonProps } from './DeleteIconButton.js';
