import { createFileRoute, redirect, useRouter } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { optionalParam } from '@/lib/page-search';
import { SignInPage } from '@/features/auth/components/sign-in-page';
import { getCredentials, safeRedirect } from '@/lib/auth';

const searchSchema = z.object({
  /** Where to go after signing in (a path of this app). */
  redirect: optionalParam(z.string()),
  reason: optionalParam(z.literal('expired')),
});

export const Route = createFileRoute('/sign-in')({
  staticData: { title: 'Sign in' },
  validateSearch: searchSchema,
  beforeLoad: ({ search }) => {
    if (getCredentials()) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect: target, reason } = Route.useSearch();
  const router = useRouter();
  return (
    <SignInPage reason={reason} onSignedIn={() => router.navigate({ href: safeRedirect(target), replace: true })} />
  );
}
