import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { SOURCE_LINK_PARAMS, type Source, type UnifiedItem } from '@radar/contracts';
import { useToast } from '@radar/shared-ui';
import { lookupLinkedItem, providerIdOf } from '../../api/items.js';
import type { UrlParams } from './useUrlParams.js';

const PARAM = SOURCE_LINK_PARAMS;
const PARAM_NAMES = Object.values(PARAM);

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
  health: {
    title: 'Service Health Issue Not Found',
    noExactMatch: (id) => `Could not find exact match for Service Health issue: ${id}`,
    noResults: (id) => `No search results for Service Health issue ID: ${id}`,
    failed: 'Failed to fetch Service Health issue details',
  },
};

const keyOf = (source: Source, id: string) => `${source}:${id.toLowerCase()}`;

/**
 * The open detail dialog lives in the URL (?roadmap={itemId}, ?message={messageId} or ?health={issueId}), so deep links, share links
 * and the browser's Back button all work: opening pushes a history entry, closing removes the parameter.
 * Items already on screen open at once; others are looked up by id. The URL is written through the page's shared writer.
 */
export function useItemDialog([searchParams, setSearchParams]: UrlParams) {
  const { toast } = useToast();
  // Items opened from the list, found by a lookup, or saved by a moderator, by source and provider id.
  const [known, setKnown] = useState<ReadonlyMap<string, UnifiedItem>>(() => new Map());
  const remember = useCallback((item: UnifiedItem) => setKnown((map) => new Map(map).set(keyOf(item.source, providerIdOf(item)), item)), []);

  const target: { source: Source; id: string } | null =
    (Object.keys(PARAM) as Source[]).flatMap((source) => {
      const id = searchParams.get(PARAM[source]);
      return id ? [{ source, id }] : [];
    })[0] ?? null;
  const targetKey = target ? keyOf(target.source, target.id) : null;
  const item = targetKey ? (known.get(targetKey) ?? null) : null;

  const removeParam = useCallback(
    () =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const name of PARAM_NAMES) next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  // Reads the latest state without making the lookup depend on it: only a new target starts a lookup.
  const lookUp = useEffectEvent((wanted: { source: Source; id: string }, isCancelled: () => boolean) => {
    if (known.has(keyOf(wanted.source, wanted.id))) return;
    const text = NOT_FOUND_TEXT[wanted.source];
    lookupLinkedItem(wanted.source, wanted.id)
      .then((result) => {
        if (isCancelled()) return;
        if (result.status === 'found') {
          // Keyed by the id as linked, so ?roadmap=412345 finds it whatever the case of a message id.
          setKnown((map) => new Map(map).set(keyOf(wanted.source, wanted.id), result.item));
          return;
        }
        const description = result.status === 'no-results' ? text.noResults(wanted.id) : text.noExactMatch(wanted.id);
        toast({ title: text.title, description, variant: 'destructive' });
        removeParam();
      })
      .catch(() => {
        if (isCancelled()) return;
        toast({ title: 'Error', description: text.failed, variant: 'destructive' });
        removeParam();
      });
  });

  const wantedSource = target?.source;
  const wantedId = target?.id;
  useEffect(() => {
    if (!wantedSource || !wantedId) return undefined;
    let cancelled = false;
    lookUp({ source: wantedSource, id: wantedId }, () => cancelled);
    return () => {
      cancelled = true;
    };
  }, [wantedSource, wantedId]);

  const open = useCallback(
    (next: UnifiedItem) => {
      remember(next);
      setSearchParams((previous) => {
        const params = new URLSearchParams(previous);
        for (const name of PARAM_NAMES) params.delete(name);
        params.set(PARAM[next.source], providerIdOf(next));
        return params;
      });
    },
    [remember, setSearchParams],
  );

  /** After a moderation save: show (and remember) what the server stored. */
  const update = useCallback(
    (next: UnifiedItem) => {
      remember(next);
      if (targetKey && targetKey !== keyOf(next.source, providerIdOf(next))) setKnown((map) => new Map(map).set(targetKey, next));
    },
    [remember, targetKey],
  );

  return { item, open, close: removeParam, update };
}
