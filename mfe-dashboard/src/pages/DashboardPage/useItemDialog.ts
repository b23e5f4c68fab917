import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Source, UnifiedItem } from '@radar/contracts';
import { useToast } from '@radar/shared-ui';
import { lookupLinkedItem, providerIdOf } from '../../api/items.js';

const PARAM: Record<Source, 'roadmap' | 'message'> = { roadmap: 'roadmap', messages: 'message' };

const NOT_FOUND_TEXT: Record<Source, { title: string; noExactMatch: (id: string) => string; noResults: (id: string) => string; failed: string }> = {
  roadmap: {
    title: 'Roadmap Item Not Found',
    noExactMatch: (id) => `Could not find exact match for roadmap item: ${id}`,
    noResults: (id) => `No search results for roadmap ID: ${id}`,
    failed: 'Failed to fetch roadmap item details',
  },
  messages: {
    title: 'Message Not Found',
    noExactMatch: (id) => `Could not find exact match for message: ${id}`,
    noResults: (id) => `No search results for message ID: ${id}`,
    failed: 'Failed to fetch message details',
  },
};

const keyOf = (source: Source, id: string) => `${source}:${id.toLowerCase()}`;

/**
 * The open detail dialog lives in the URL (?roadmap={itemId} or ?message={messageId}), so deep links, share links
 * and the browser's Back button all work: opening pushes a history entry, closing removes the parameter.
 * Items already on screen open at once; others are looked up by id (spec 01 §7).
 */
export function useItemDialog() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { toast } = useToast();
  const known = useRef(new Map<string, UnifiedItem>());
  const [item, setItem] = useState<UnifiedItem | null>(null);

  const roadmapId = searchParams.get('roadmap');
  const messageId = searchParams.get('message');
  const target: { source: Source; id: string } | null = roadmapId ? { source: 'roadmap', id: roadmapId } : messageId ? { source: 'messages', id: messageId } : null;

  const removeParam = useCallback(
    () =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete('roadmap');
          next.delete('message');
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  useEffect(() => {
    if (!target) {
      setItem(null);
      return undefined;
    }
    const cached = known.current.get(keyOf(target.source, target.id));
    if (cached) {
      setItem(cached);
      return undefined;
    }
    setItem(null);
    let cancelled = false;
    const text = NOT_FOUND_TEXT[target.source];
    lookupLinkedItem(target.source, target.id)
      .then((result) => {
        if (cancelled) return;
        if (result.status === 'found') {
          known.current.set(keyOf(target.source, target.id), result.item);
          setItem(result.item);
          return;
        }
        const description = result.status === 'no-results' ? text.noResults(target.id) : text.noExactMatch(target.id);
        toast({ title: text.title, description, variant: 'destructive' });
        removeParam();
      })
      .catch(() => {
        if (cancelled) return;
        toast({ title: 'Error', description: text.failed, variant: 'destructive' });
        removeParam();
      });
    return () => {
      cancelled = true;
    };
    // The target is identified by its source and id; the rest is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target?.source, target?.id]);

  const open = useCallback(
    (next: UnifiedItem) => {
      const id = providerIdOf(next);
      known.current.set(keyOf(next.source, id), next);
      setSearchParams((previous) => {
        const params = new URLSearchParams(previous);
        params.delete('roadmap');
        params.delete('message');
        params.set(PARAM[next.source], id);
        return params;
      });
    },
    [setSearchParams],
  );

  /** After a moderation save: show (and remember) the saved values. */
  const update = useCallback((next: UnifiedItem) => {
    known.current.set(keyOf(next.source, providerIdOf(next)), next);
    setItem(next);
  }, []);

  return { item, open, close: removeParam, update };
}
