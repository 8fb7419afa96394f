import { Link, useMatches } from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';

/**
 * Breadcrumbs from the route matches: each route declares its crumb in `staticData.crumb`,
 * a text or a component given the route's params (e.g. the organization's name). Below 768 px
 * only the last two show (the drawer holds the way up).
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
            <li key={id} className={`flex min-w-0 items-center gap-1.5${index < crumbs.length - 2 ? ' max-md:hidden' : ''}`}>
              {index > 0 ? (
                <ChevronRight
                  aria-hidden="true"
                  className={`size-4 shrink-0 text-gray-500 dark:text-gray-400${index === crumbs.length - 2 ? ' max-md:hidden' : ''}`}
                />
              ) : null}
              <span className="truncate">
                {last ? (
                  <span aria-current="page" className="font-medium">
                    {label}
                  </span>
                ) : isLink ? (
                  <Link to={pathname as '/'} className="text-gray-700 underline-offset-4 hover:underline dark:text-gray-300">
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
