import { useMatches } from '@tanstack/react-router';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export const APP_NAME = 'Analytics admin';
const SEPARATOR = ' · ';
/** The routes whose crumb names the organization or project the pages below belong to. */
const CONTEXT_ROUTES = new Set(['/_authed/organizations/$organizationId', '/_authed/projects/$projectId']);

/**
 * The tab's title for every page, from the route matches (no page sets its own): the page (its
 * crumb, after the one above it when that is a name, "Edit · Nightly S3"), then the organization
 * or project it belongs to, then the app: "Members · Hedgebox · Analytics admin". Crumbs that are
 * names from the server are components (cached names, "…" until loaded): they are drawn here
 * into an element outside the document (nobody sees or reads it twice) and their text read, and the title follows as they fill in. A route without a crumb
 * (sign-in, a shared insight) names itself with `staticData.title`.
 */
export function DocumentTitle() {
  const matches = useMatches();
  const [host] = useState(() => document.createElement('span'));
  // Up to a match that failed or is not found: below it nothing is drawn, and its crumb may be
  // what is missing (a name that is not to be asked for).
  const failedAt = matches.findIndex((m) => m.status === 'error' || m.status === 'notFound');
  const drawn = failedAt < 0 ? matches : matches.slice(0, failedAt);
  // A name is drawn once its route has loaded (so it is in the cache, and a route refused before
  // loading, like a malformed id, never asks for it).
  const crumbs = drawn.flatMap((m) => {
    const crumb = m.staticData.crumb;
    return crumb && (typeof crumb === 'string' || m.status === 'success') ? [{ ...m, crumb }] : [];
  });
  const contextAt = crumbs.findLastIndex((c) => CONTEXT_ROUTES.has(c.routeId));
  const context = contextAt >= 0 ? crumbs[contextAt] : undefined;
  const below = crumbs.slice(contextAt + 1);
  const page = below.slice(-2).reverse();
  const fallback = matches.findLast((m) => m.staticData.title)?.staticData.title;
  const parts = [...page, ...(context ? [context] : [])];

  useLayoutEffect(() => {
    const update = () => {
      const texts = [...host.children].map((child) => child.textContent?.trim() ?? '').filter(Boolean);
      document.title = [...(texts.length ? texts : fallback ? [fallback] : []), APP_NAME].join(SEPARATOR);
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(host, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [host, matches, fallback]);

  return createPortal(
    parts.map(({ id, crumb: Crumb, params }): ReactNode => (
      <span key={id}>{typeof Crumb === 'string' ? Crumb : <Crumb params={params as Record<string, unknown>} />}</span>
    )),
    host,
  );
}
