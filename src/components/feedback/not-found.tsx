import { Link } from '@tanstack/react-router';
import { buttonClasses } from '@/components/ui/button';

/** The 404 page (inside the layout, or on its own via RootNotFound). */
export function NotFound() {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-gray-700 dark:text-gray-300">
        There is nothing at this address. It may have moved, or the link is wrong.
      </p>
      <Link to="/organizations" className={buttonClasses('primary')}>
        Go to organizations
      </Link>
    </div>
  );
}

export function RootNotFound() {
  return (
    <main>
      <NotFound />
    </main>
  );
}
