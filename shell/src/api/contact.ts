import { routes, type ContactRequest } from '@radar/contracts';
import { callEndpoint } from '@radar/shared-ui';

/** POST /api/contact (the About Us form). */
export const sendContactMessage = (body: ContactRequest) => callEndpoint(routes.contact.submit, { body });
