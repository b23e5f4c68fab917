import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Box } from '@mui/material';
import { TOAST } from '../../presentation/ui-constants.js';
import { useHydrated } from '../../hydration/useHydrated.js';
import { useToastStore } from '../../toast/toast-store.js';
import { ToastCard } from './ToastCard.js';

/**
 * A body-level container for the region. An open MUI dialog marks every other child of <body> aria-hidden, which
 * would silence the sign-in dialog's own error toasts for screen readers; the region removes that mark from itself.
 */
function useToastContainer(): HTMLElement | null {
  const [element] = useState(() => {
    // A server render has no document: no region in its HTML.
    if (typeof document === 'undefined') return null;
    const div = document.createElement('div');
    div.dataset.radarToasts = '';
    return div;
  });
  useEffect(() => {
    if (!element) return;
    document.body.appendChild(element);
    const observer = new MutationObserver(() => {
      if (element.hasAttribute('aria-hidden')) element.removeAttribute('aria-hidden');
      if (element.hasAttribute('inert')) element.removeAttribute('inert');
    });
    observer.observe(element, { attributes: true, attributeFilter: ['aria-hidden', 'inert'] });
    return () => {
      observer.disconnect();
      element.remove();
    };
  }, [element]);
  // Hydrating a server render, the region is rendered once that is done: the server sent no markup for a portal.
  return useHydrated() ? element : null;
}

/** The notifications region: bottom right, max 420 px wide from md up; F8 moves focus here. */
export function Toaster() {
  const container = useToastContainer();
  const toasts = useToastStore((s) => s.toasts);
  const shown = toasts.filter((t) => t.open);
  const dismiss = useToastStore((s) => s.dismiss);
  const regionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (!container) return null;
  return createPortal(
    <Box
      component="section"
      ref={regionRef}
      aria-label="Notifications (F8)"
      tabIndex={-1}
      sx={{
        position: 'fixed',
        zIndex: (theme) => theme.zIndex.snackbar,
        bottom: 0,
        right: 0,
        width: '100%',
        maxWidth: { md: TOAST.maxWidthPx },
        p: 2,
        outline: 'none',
        pointerEvents: shown.length ? 'auto' : 'none',
      }}
    >
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {shown.map((t) => (
          <ToastCard key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
        ))}
      </Box>
    </Box>,
    container,
  );
}
