export { ChipList, type ChipListProps } from './ChipList.js';
