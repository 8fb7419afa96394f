import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { INVITE_TOKEN_PARAM, type InviteAcceptResponse } from '@/contract/invites';
import { FormError, TextField } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { setCredentials } from '@/lib/auth';
import { describeError } from '@/lib/error-messages';
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
          <Button variant="primary" onClick={() => {
            setCredentials({ baseUrl: window.location.origin, key }, true);
            void navigate({ to: '/organizations/$organizationId', params: { organizationId: result.organization.id } });
          }}>
            Open {result.organization.name}
          </Button>
        </>
      ) : (
        <p className="text-sm">Sign in with your own API key to open it.</p>
      )}
    </div>
  );
}

/** The accept link's secret, from the URL's fragment (`#token=…`): the server never sees a fragment. */
function tokenFromLocation(): string {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get(INVITE_TOKEN_PARAM) ?? '';
}

type Errors = { first_name?: string; email?: string; key?: string; form?: string };

/**
 * The page of an invite email's link: name and email, then membership (and, for a new user, a key).
 * An address that already has an account accepts with that account's API key.
 */
export function AcceptInvitePage({ inviteId }: { inviteId: string }) {
  const [token] = useState(tokenFromLocation);
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [needsKey, setNeedsKey] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const { mutate, isPending, data } = useMutation(peopleMutations.acceptInvite(inviteId));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    if (!firstName.trim()) next.first_name = 'Enter your first name.';
    if (!email.trim()) next.email = 'Enter the email address the invite was sent to.';
    if (needsKey && !apiKey.trim()) next.key = 'Enter the personal API key of your account.';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const body = { first_name: firstName.trim(), last_name: lastName.trim(), email: email.trim(), token };
    mutate({ body, key: needsKey ? apiKey.trim() : undefined }, {
      onError: (error) => {
        if (isApiError(error) && error.attr === 'token') setErrors({ form: error.detail });
        else if (isApiError(error) && (error.attr === 'email' || error.attr === 'first_name')) setErrors({ [error.attr]: error.detail });
        else if (isApiError(error) && error.status === 403) {
          setNeedsKey(true);
          setErrors(needsKey ? { key: error.detail } : { form: error.detail });
        } else if (isApiError(error) && error.status === 401 && needsKey) setErrors({ key: 'This API key was not accepted.' });
        else setErrors({ form: describeError(error) });
      },
    });
  };
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12 dark:bg-gray-950">
      <div className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-900">
        {data ? <Joined result={data} /> : !token ? (
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
            <FormError message={errors.form} />
            <TextField label="First name" autoComplete="given-name" value={firstName} error={errors.first_name} onChange={(e) => setFirstName(e.target.value)} />
            <TextField label="Last name" autoComplete="family-name" value={lastName} onChange={(e) => setLastName(e.target.value)} />
            <TextField label="Email" type="email" autoComplete="email" value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
            {needsKey && (
              <TextField label="Your personal API key" type="password" autoComplete="off" value={apiKey} error={errors.key}
                onChange={(e) => setApiKey(e.target.value)} />
            )}
            <Button variant="primary" type="submit" disabled={isPending}>{isPending ? 'Joining…' : 'Join'}</Button>
          </form>
        )}
      </div>
    </main>
  );
}
