import { BarChart3 } from 'lucide-react';
import { SignInForm } from './sign-in-form';

interface SignInPageProps {
  /** Why the user is here again, when the app sent them (their key stopped working). */
  reason: 'expired' | undefined;
  onSignedIn: () => Promise<void> | void;
}

export function SignInPage({ reason, onSignedIn }: SignInPageProps) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12 dark:bg-gray-950">
      <div className="w-full max-w-md space-y-6 rounded-xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-800 dark:bg-gray-900">
        <div className="space-y-2">
          <BarChart3 aria-hidden="true" className="size-8 text-indigo-700 dark:text-indigo-300" />
          <h1 className="text-2xl font-semibold">Sign in</h1>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Connect to an analytics server with a personal API key.
          </p>
        </div>
        {reason === 'expired' ? (
          <p
            role="status"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            The server no longer accepts your API key. Sign in again to continue where you were.
          </p>
        ) : null}
        <SignInForm onSignedIn={onSignedIn} />
      </div>
    </main>
  );
}
