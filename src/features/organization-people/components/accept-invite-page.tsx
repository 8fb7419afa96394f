import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { INVITE_TOKEN_PARAM, type InviteAcceptResponse } from '@/contract/invites';
import { z } from '@/contract/z';
import { applyServerError, FormFooter, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { setCredentials } from '@/lib/auth';
import { peopleMutations } from '../api/people.mutations';
import { levelLabel } from './levels';

function Joined({ result }: { result: InviteAcceptResponse }) {
  const navigate = useNavigate();
  const key = result.personal_api_key;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Welcome to {result.organization.name}</h1>
      <p>You joined as {levelLabel(result.level).toLowerCase()}.</p>
      {key ? (
        <>
          <p className="text-sm">
            This is your personal API key. It is shown only now: keep it somewhere safe to sign in again.
          </p>
          <code className="block break-all rounded bg-gray-100 p-2 text-sm dark:bg-gray-800">{key}</code>
          <Button
            variant="primary"
            onClick={() => {
              setCredentials({ baseUrl: window.location.origin, key }, true);
              void navigate({
                to: '/organizations/$organizationId',
                params: { organizationId: result.organization.id },
              });
            }}
          >
            Open {result.organization.name}
          </Button>
        </>
      ) : (
        <p className="text-sm">Sign in with your own API key to open it.</p>
      )}
    </div>
  );
}

/** The fields the API's `attr` can name; the token is the link's, not the person's to fix. */
const ACCEPT_FIELDS = ['first_name', 'last_name', 'email'] as const;

/** The accept link's secret, from the URL's fragment (`#token=…`): the server never sees a fragment. */
function tokenFromLocation(): string {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get(INVITE_TOKEN_PARAM) ?? '';
}

const acceptSchema = z.object({
  first_name: z.string().check(z.trim(), z.minLength(1, { error: 'Enter your first name.' })),
  last_name: z.string().check(z.trim()),
  email: z.string().check(z.trim(), z.minLength(1, { error: 'Enter the email address the invite was sent to.' })),
  key: z.string().check(z.trim()),
});
type AcceptValues = z.output<typeof acceptSchema>;

/**
 * The page of an invite email's link: name and email, then membership (and, for a new user, a key).
 * An address that already has an account accepts with that account's API key.
 */
export function AcceptInvitePage({ inviteId }: { inviteId: string }) {
  const [token] = useState(tokenFromLocation);
  const [needsKey, setNeedsKey] = useState(false);
  const form = useForm<AcceptValues>({
    resolver: zodResolver(acceptSchema),
    defaultValues: { first_name: '', last_name: '', email: '', key: '' },
  });
  const { mutateAsync, data } = useMutation(peopleMutations.acceptInvite(inviteId));
  const onSubmit = form.handleSubmit(async ({ key, ...person }) => {
    if (needsKey && !key) {
      form.setError('key', { message: 'Enter the personal API key of your account.' }, { shouldFocus: true });
      return;
    }
    try {
      await mutateAsync({ body: { ...person, token }, key: needsKey ? key : undefined });
    } catch (error) {
      // An address that has an account: the first refusal asks for its key, later ones are the key's.
      if (isApiError(error) && error.status === 403) {
        setNeedsKey(true);
        form.setError(needsKey ? 'key' : 'root.server', { message: error.detail });
      } else if (isApiError(error) && error.status === 401 && needsKey) {
        form.setError('key', { message: 'This API key was not accepted.' }, { shouldFocus: true });
      } else {
        applyServerError(form, error, ACCEPT_FIELDS);
      }
    }
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12 dark:bg-gray-950">
      <div className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-900">
        {data ? (
          <Joined result={data} />
        ) : !token ? (
          <div className="space-y-2">
            <h1 className="text-2xl font-semibold">This invite link is incomplete</h1>
            <p className="text-sm text-gray-700 dark:text-gray-300">
              Open the link from your invite email again, whole: the part after # proves the invite was sent to you.
            </p>
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} className="space-y-4">
            <h1 className="text-2xl font-semibold">Accept your invite</h1>
            <p className="text-sm text-gray-700 dark:text-gray-300">Tell us who you are to join the organization.</p>
            <TextField
              label="First name"
              autoComplete="given-name"
              error={errors.first_name?.message}
              {...register('first_name')}
            />
            <TextField label="Last name" autoComplete="family-name" {...register('last_name')} />
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...register('email')}
            />
            {needsKey && (
              <TextField
                label="Your personal API key"
                type="password"
                autoComplete="off"
                error={errors.key?.message}
                {...register('key')}
              />
            )}
            <FormFooter
              error={errors.root?.server?.message}
              submitLabel="Join"
              pendingLabel="Joining…"
              isSubmitting={isSubmitting}
            />
          </form>
        )}
      </div>
    </main>
  );
}
