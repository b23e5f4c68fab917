export { AdminData, type AdminAnswer, type AdminDataProps } from './AdminData.js';
