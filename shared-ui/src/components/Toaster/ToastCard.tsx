import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Box, IconButton, Paper, Typography } from '@mui/material';
import { TOAST } from '../../presentation/ui-constants.js';
import type { Toast } from '../../toast/toast-store.js';
import { CloseIcon } from '../icons.js';

export interface ToastCardProps {
  toast: Toast;
  onDismiss: () => void;
}

/** One toast: closes after its duration, on the close button, or when swiped right past 50 px. */
export function ToastCard({ toast, onDismiss }: ToastCardProps) {
  const [offset, setOffset] = useState(0);
  const [paused, setPaused] = useState(false);
  const startX = useRef<number | null>(null);
  const destructive = toast.variant === 'destructive';

  useEffect(() => {
    if (paused) return undefined;
    const timer = window.setTimeout(onDismiss, toast.duration);
    return () => window.clearTimeout(timer);
  }, [paused, toast.duration, onDismiss]);

  const onPointerDown = (event: PointerEvent) => {
    startX.current = event.clientX;
    setPaused(true);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (startX.current === null) return;
    setOffset(Math.max(0, event.clientX - startX.current));
  };
  const onPointerEnd = (event: PointerEvent) => {
    if (startX.current === null) return;
    const moved = event.clientX - startX.current;
    startX.current = null;
    setPaused(false);
    if (moved >= TOAST.swipeThresholdPx) onDismiss();
    else setOffset(0);
  };

  return (
    <Box component="li" sx={{ mt: 1 }}>
      <Paper
        role={destructive ? 'alert' : 'status'}
        aria-live={destructive ? 'assertive' : 'polite'}
        aria-atomic="true"
        data-variant={toast.variant}
        elevation={6}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onMouseEnter={() => setPaused(true)}
        onMouseLeave={() => setPaused(false)}
        sx={{
          display: 'flex',
          gap: 1,
          alignItems: 'flex-start',
          p: 2,
          pr: 1,
          touchAction: 'pan-y',
          transform: `translateX(${offset}px)`,
          opacity: offset ? Math.max(0.3, 1 - offset / 200) : 1,
          border: 1,
          borderColor: destructive ? 'error.dark' : 'divider',
          bgcolor: destructive ? 'error.main' : 'background.paper',
          color: destructive ? 'error.contrastText' : 'text.primary',
        }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {toast.title ? (
            <Typography variant="subtitle2" component="p" sx={{ fontWeight: 600 }}>
              {toast.title}
            </Typography>
          ) : null}
          {toast.description ? (
            <Typography variant="body2" component="p" sx={{ opacity: 0.9 }}>
              {toast.description}
            </Typography>
          ) : null}
        </Box>
        <IconButton size="small" aria-label="Close notification" onClick={onDismiss} sx={{ color: 'inherit' }}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Paper>
    </Box>
  );
}
