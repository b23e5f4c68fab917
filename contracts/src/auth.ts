import { z } from './zod.js';
import { email } from './common.js';
import { isRecoveryCodeForm, VERIFICATION_CODE_LENGTH } from './constants.js';

export const signupRequest = z.object({
  firstName: z.string({ error: 'First name is required' }).trim().min(1, 'First name is required').max(100),
  lastName: z.string({ error: 'Last name is required' }).trim().min(1, 'Last name is required').max(100),
  email,
});
export type SignupRequest = z.infer<typeof signupRequest>;

export const sendCodeRequest = z.object({ email });
export type SendCodeRequest = z.infer<typeof sendCodeRequest>;

export const verifyCodeRequest = z.object({
  email,
  code: z
    .string({ error: 'Verification code must be 6 digits' })
    .trim()
    .max(64, 'Verification code must be 6 digits')
    // A mailed code, or the longer recovery code `npm run admin:recover` prints.
    .refine((code) => new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(code) || isRecoveryCodeForm(code), 'Verification code must be 6 digits'),
});
export type VerifyCodeRequest = z.infer<typeof verifyCodeRequest>;

export const roleRef = z.object({ id: z.number().int(), name: z.string() });
export type RoleRef = z.infer<typeof roleRef>;

/** The signed-in user, as GET /api/auth/session-user and GET /api/auth/user return it. */
/**
 * Whether an admin's session may use the admin pages (ADMIN_SECOND_FACTOR): ok; verify-passkey (signed in with a code,
 * but they have a passkey: sign in with it); add-passkey (the policy wants a passkey and they have none: add one on
 * /profile, then sign in with it); sign-in-again (no passkey and the code sign-in is older than ADMIN_CODE_FRESH_HOURS).
 */
export const SECOND_FACTOR_STATES = ['ok', 'verify-passkey', 'add-passkey', 'sign-in-again'] as const;
export type SecondFactorState = (typeof SECOND_FACTOR_STATES)[number];

export const user = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  roles: z.array(roleRef),
  /** Set while an admin impersonates a role (a development tool); roles then are the effective ones. */
  impersonatedRole: z.string().nullable().optional(),
  /** For those who really hold Admin: whether this session may use the admin pages, and what is missing if not. */
  secondFactor: z
    .object({
      state: z.enum(SECOND_FACTOR_STATES),
      /** The user has at least one passkey. */
      hasPasskey: z.boolean(),
    })
    .nullable()
    .optional(),
});
export type User = z.infer<typeof user>;

/**
 * GET /api/auth/session-user answers 200 with `{ user }` where user is null when signed out, so the client can
 * fall through to GET /api/auth/user, which answers 401 when signed out.
 */
export const sessionUserResponse = z.object({ user: user.nullable() });
export type SessionUserResponse = z.infer<typeof sessionUserResponse>;

/** GET /api/auth/user-roles: one entry per effective role; the client reads `role.name`. */
export const userRoleEntry = z.object({ id: z.number().int(), roleId: z.number().int(), role: roleRef });
export const userRolesResponse = z.array(userRoleEntry);
export type UserRolesResponse = z.infer<typeof userRolesResponse>;
export type UserRoleEntry = z.infer<typeof userRoleEntry>;

/**
 * POST /api/auth/logout-everywhere. `revokeTokens: true` also revokes every personal API token of the account (a
 * token otherwise survives the sign-out, for the scripts that use it). No body: the sessions only.
 */
export const logoutEverywhereRequest = z
  .object({ revokeTokens: z.boolean({ error: 'revokeTokens must be true or false' }).optional() })
  .strict()
  .optional();
export type LogoutEverywhereRequest = z.infer<typeof logoutEverywhereRequest>;
export const logoutEverywhereResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  /** How many API tokens were revoked (0 unless asked). */
  revokedTokens: z.number().int(),
});
export type LogoutEverywhereResponse = z.infer<typeof logoutEverywhereResponse>;

/**
 * A session of the signed-in user as /profile lists it: the browser and system its user agent names, the network it
 * was signed in from (a /24 of IPv4, a /48 of IPv6: enough to recognise, not an address), when it began and was last
 * used, and whether it is the one asking.
 */
export const sessionRecord = z.object({
  /** The first 16 hex characters of the session's stored hash: names it without being it. */
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  network: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type SessionRecord = z.infer<typeof sessionRecord>;
export const sessionsResponse = z.array(sessionRecord);
export type SessionsResponse = z.infer<typeof sessionsResponse>;
export const sessionIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, 'id must be a session id (16 hexadecimal characters)') });
export type SessionIdParams = z.infer<typeof sessionIdParams>;
/** An admin ended a user's sessions: how many, and how many of their API tokens were revoked with them. */
export const endedSessionsResponse = z.object({ success: z.boolean(), message: z.string(), ended: z.number().int(), revokedTokens: z.number().int() });
export type EndedSessionsResponse = z.infer<typeof endedSessionsResponse>;
