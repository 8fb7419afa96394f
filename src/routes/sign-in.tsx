import { createFileRoute, redirect, useRouter } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { SignInPage } from '@/features/auth/components/sign-in-page';
import { getCredentials, safeRedirect } from '@/lib/auth';

const searchSchema = z.object({
  /** Where to go after signing in (a path of this app). */
  redirect: z.catch(z.optional(z.string()), undefined),
  reason: z.catch(z.optional(z.literal('expired')), undefined),
});

export const Route = createFileRoute('/sign-in')({
  validateSearch: searchSchema,
  beforeLoad: ({ search }) => {
    if (getCredentials()) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect: target, reason } = Route.useSearch();
  const router = useRouter();
  return <SignInPage reason={reason} onSignedIn={() => router.navigate({ href: safeRedirect(target), replace: true })} />;
}
