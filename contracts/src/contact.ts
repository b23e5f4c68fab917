import { z } from './zod.js';
import { email } from './common.js';

/** POST /api/contact. */
export const contactRequest = z.object({
  firstName: z.string({ error: 'First name must be at least 2 characters' }).trim().min(2, 'First name must be at least 2 characters').max(100),
  lastName: z.string({ error: 'Last name must be at least 2 characters' }).trim().min(2, 'Last name must be at least 2 characters').max(100),
  email,
  message: z
    .string({ error: 'Message must be at least 10 characters' })
    .trim()
    .min(10, 'Message must be at least 10 characters')
    .max(5000, 'Message must be at most 5000 characters'),
});
export type ContactRequest = z.infer<typeof contactRequest>;

export const contactSubmission = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  message: z.string(),
  submittedAt: z.string(),
  isRead: z.boolean(),
});
export type ContactSubmission = z.infer<typeof contactSubmission>;

export const contactResponse = z.object({ success: z.boolean(), message: z.string(), id: z.number().int() });
export type ContactResponse = z.infer<typeof contactResponse>;
export const contactSubmissionsResponse = z.array(contactSubmission);
export type ContactSubmissionsResponse = z.infer<typeof contactSubmissionsResponse>;
