import { Link, useMatches } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';

/**
 * Breadcrumbs from the route matches: each route declares its crumb in `staticData.crumb`,
 * a text or a component given the route's params (e.g. the organization's name). Below 768 px
 * only the last two show (the drawer holds the way up), below 1280 px the last three. A long last
 * crumb is cut short, not the way up.
 */
export function Breadcrumbs() {
  const matches = useMatches();
  const crumbs = matches.flatMap((match) => {
    const crumb = match.staticData.crumb;
    if (!crumb) return [];
    return [
      {
        id: match.id,
        pathname: match.pathname,
        params: match.params as Record<string, unknown>,
        crumb,
        isLink: match.staticData.crumbIsLink !== false,
      },
    ];
  });
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex items-center gap-1.5 text-sm">
        {crumbs.map(({ id, pathname, params, crumb: Crumb, isLink }, index) => {
          const last = index === crumbs.length - 1;
          const label = typeof Crumb === 'string' ? Crumb : <Crumb params={params} />;
          return (
            // The way up keeps its words (each at most 10rem) where it is one crumb (a phone);
            // from md up, where more of it shows (the last three below xl, all from xl), each
            // gives way when the line is full. A long name in the last crumb is the one cut short.
            <li
              key={id}
              className={`flex items-center gap-1.5 ${last ? 'min-w-0' : 'max-w-40 shrink-0 md:min-w-0 md:shrink'}${index < crumbs.length - 2 ? ' max-md:hidden' : ''}${index < crumbs.length - 3 ? ' max-xl:hidden' : ''}`}
            >
              {index > 0 ? (
                <ChevronRight
                  aria-hidden="true"
                  className={`size-4 shrink-0 text-gray-500 dark:text-gray-400${index === crumbs.length - 2 ? ' max-md:hidden' : ''}${index === crumbs.length - 3 ? ' max-xl:hidden' : ''}`}
                />
              ) : null}
              <span className="truncate">
                {last ? (
                  <span aria-current="page" className="font-medium">
                    {label}
                  </span>
                ) : isLink ? (
                  // Exact: the way up is not "the current page" (aria-current) because the page lies under it.
                  <Link
                    to={pathname as '/'}
                    activeOptions={{ exact: true }}
                    className="text-gray-700 underline-offset-4 hover:underline dark:text-gray-300"
                  >
                    {label}
                  </Link>
                ) : (
                  <span className="text-gray-700 dark:text-gray-300">{label}</span>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
