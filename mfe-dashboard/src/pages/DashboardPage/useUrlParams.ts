import { useCallback, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams, type NavigateOptions } from 'react-router-dom';

export type UpdateUrlParams = (update: (previous: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => void;
/** The page's query parameters and the one writer every part of the page changes them through. */
export type UrlParams = readonly [URLSearchParams, UpdateUrlParams];

/**
 * The query string of a page that more than one part writes (the dashboard's view and its open item dialog).
 * React Router's functional setSearchParams starts from the parameters of the last render, so two writes before the
 * next render (a row clicked just as a typed search applies) would keep only the second one: the dialog closes, or the
 * search is lost. This writer starts each write from the last one it made, and from the location again once a render
 * shows a new one (Back, Forward, a link). Every writer of the page must share one instance.
 */
export function useUrlParams(): UrlParams {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const latest = useRef(location.search);
  useLayoutEffect(() => {
    latest.current = location.search;
  }, [location.search, location.key]);

  const update = useCallback<UpdateUrlParams>(
    (change, options) => {
      const next = change(new URLSearchParams(latest.current));
      latest.current = `?${next.toString()}`;
      void navigate(latest.current, options);
    },
    [navigate],
  );
  return [searchParams, update];
}
