// Public surface of @radar/shared-ui. Host and remotes share this module as a singleton, so the stores and
// contexts below are the same objects everywhere.
// apiFetch is for downloads (a raw answer from endpointUrl); every JSON call goes through callEndpoint/useEndpoint.
export { ApiError, apiFetch, serverMessageOf, type ApiInit } from './api/api-client.js';
export { SwrProvider, swrDefaults, type SwrProviderProps } from './api/SwrProvider.js';
export { callEndpoint, urlOf, useEndpoint, type RequestArgs } from './api/endpoint-client.js';
export { SUBSCRIPTIONS_KEY, findItemSubscription, removeSubscription, subscribeToItem, useNotificationSubscriptions } from './api/subscriptions.js';
export { DIGEST_STATUS_KEY, signUpForWeeklyDigest, subscribeToWeeklyDigest, unsubscribeFromWeeklyDigest, useDigestStatus } from './api/digest.js';
export { copyText } from './clipboard/copy-text.js';
export { fallbackRuntimeConfig, getRuntimeConfig, useRuntimeConfig } from './config/runtime-config.js';
export { RadarThemeProvider, useThemePreference, type ThemeContextValue } from './theme/ThemeProvider.js';
export { buildTheme } from './theme/build-theme.js';
export { THEME_STORAGE_KEY, useThemeStore, type ResolvedTheme, type ThemePreference } from './theme/theme-store.js';
export { ToastProvider, useToast, type ToastProviderProps } from './toast/ToastProvider.js';
export { queueToastAfterReload, toast, useToastStore, type Toast, type ToastOptions, type ToastVariant } from './toast/toast-store.js';
export { AUTH_USER_KEY, SESSION_USER_KEY, displayNameOf, hasRole, useSession, type Session } from './session/useSession.js';
export { useSignOut, useSignOutEverywhere } from './session/useSignOut.js';
export { USER_ROLES_KEY, useUserRoles, type UserRoles } from './session/useUserRoles.js';
export { useAuthDialog, useAuthDialogStore, type AuthMode } from './auth/auth-dialog-store.js';
export { createPasskey, passkeyCancelled, passkeySupport, signInWithPasskey } from './auth/passkeys.js';
export {
  confirmationDeclined,
  confirmWithPasskey,
  ConfirmationDeclinedError,
  PASSKEY_CONFIRMATION,
  reauthenticationRequired,
  REAUTHENTICATION_REQUIRED,
  usePasskeyConfirmation,
} from './auth/reauth.js';
export { Deferred, lazyNamed, useOpenedOnce, type DeferredProps } from './lazy/Deferred.js';
export { AfterFirstPaint, useAfterFirstPaint } from './lazy/AfterFirstPaint.js';
export { HydrationDone, beginHydration, onHydrated, useDisplayTimeZone, useHydrated } from './hydration/useHydrated.js';
export * from './presentation/item-rules.js';
export * from './presentation/format.js';
export { AccountMenu } from './components/AccountMenu/index.js';
export { AppHeader, MAIN_NAV_LINKS, type AppHeaderProps, type HeaderAction, type HeaderExportAction } from './components/AppHeader/index.js';
export { ChipList, type ChipListProps } from './components/ChipList/index.js';
export { DeliveryLogDialog, type DeliveryLogAnswer, type DeliveryLogColumn, type DeliveryLogDialogProps } from './components/DeliveryLogDialog/index.js';
export { DialogsProvider, useDialogs, type ConfirmDialogProps, type ConfirmOptions, type DialogProps, type Dialogs } from './components/Dialogs/index.js';
export { AuthDialog, WELCOME_TOAST, type AuthDialogProps } from './components/AuthDialog/index.js';
export { FeaturedCard, FeaturedCarousel, featuredItemLink, type FeaturedCarouselProps } from './components/FeaturedCarousel/index.js';
export { ImpersonationBanner } from './components/ImpersonationBanner/index.js';
export { HealthStatusBadge, ItemBadges, ItemStatusBadge, SourceBadge, type ItemBadgesProps } from './components/ItemBadges/index.js';
export { MainLandmark } from './components/MainLandmark/index.js';
export { NotFoundPage } from './components/NotFoundPage/index.js';
export { RadarProviders, type RadarProvidersProps } from './components/RadarProviders/index.js';
export { ThemeToggle } from './components/ThemeToggle/index.js';
export { Toaster } from './components/Toaster/index.js';
export { VisuallyHidden, WordDiffText } from './components/WordDiffText/index.js';
export { UserAvatar, avatarInitials, type UserAvatarProps } from './components/UserAvatar/index.js';
export * as icons from './components/icons.js';
export {
  CACHE,
  CAROUSEL_CARDS_PER_SLIDE,
  DIGEST_REPORT_TIMEFRAMES,
  SERVICE_DISPLAY_LIMIT,
  SIGNUP_SUCCESS_CLOSE_MS,
  SKELETON_ROWS,
  TAG_DISPLAY_LIMIT,
  TOAST,
} from './presentation/ui-constants.js';
