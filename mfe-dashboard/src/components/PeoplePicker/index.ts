export { PeoplePicker, type PeoplePickerProps } from './PeoplePicker.js';
