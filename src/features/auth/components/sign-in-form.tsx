import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { z } from '@/contract/z';
import { currentKeyQuery, defaultBaseUrl, setCredentials, validateKey } from '@/lib/auth';
import { normalizeBaseUrl } from '@/lib/auth-store';
import { Button } from '@/components/ui/button';
import { CheckboxField, FormError, TextField } from '@/components/form-kit';
import { signInErrorMessage } from './sign-in-errors';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const signInSchema = z.object({
  baseUrl: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter the server URL.' }),
      z.refine(isHttpUrl, { error: 'Enter a full URL, such as http://localhost:8000.' }),
    ),
  key: z.string().check(z.trim(), z.minLength(1, { error: 'Enter your API key.' })),
  remember: z.boolean(),
});
type SignInValues = z.infer<typeof signInSchema>;
type FieldErrors = Partial<Record<'baseUrl' | 'key', string>>;

/**
 * Checks the key with `GET /api/personal_api_keys/@current/`, then keeps it (in sessionStorage
 * when "Remember in this tab" is ticked, else in memory) and calls `onSignedIn`.
 * A plain form (no form library): this page must load fast.
 */
export function SignInForm({ onSignedIn }: { onSignedIn: () => Promise<void> | void }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SignInValues>(() => ({ baseUrl: defaultBaseUrl(), key: '', remember: false }));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const signIn = useMutation({
    meta: { skipAuthRedirect: true },
    mutationFn: async (input: SignInValues) => {
      const credentials = { baseUrl: normalizeBaseUrl(input.baseUrl), key: input.key };
      return { credentials, currentKey: await validateKey(credentials) };
    },
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const parsed = signInSchema.safeParse(values);
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'baseUrl' || field === 'key') && !errors[field]) errors[field] = issue.message;
      }
      setFieldErrors(errors);
      const first = document.getElementById(errors.baseUrl ? 'sign-in-base-url' : 'sign-in-key');
      first?.focus();
      return;
    }
    setFieldErrors({});
    try {
      const { credentials, currentKey } = await signIn.mutateAsync(parsed.data);
      queryClient.clear();
      setCredentials(credentials, parsed.data.remember);
      queryClient.setQueryData(currentKeyQuery().queryKey, currentKey);
      await onSignedIn();
    } catch (error) {
      setFormError(signInErrorMessage(error, normalizeBaseUrl(parsed.data.baseUrl)));
    }
  };

  const pending = signIn.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <TextField
        id="sign-in-base-url"
        label="Server URL"
        type="url"
        inputMode="url"
        autoComplete="url"
        spellCheck={false}
        value={values.baseUrl}
        onChange={(event) => setValues((v) => ({ ...v, baseUrl: event.target.value }))}
        error={fieldErrors.baseUrl}
      />
      <TextField
        id="sign-in-key"
        label="API key"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder="phx_…"
        description="A personal API key. Its scopes decide what you can do here."
        value={values.key}
        onChange={(event) => setValues((v) => ({ ...v, key: event.target.value }))}
        error={fieldErrors.key}
      />
      <CheckboxField
        label="Remember in this tab"
        description="Keeps the key until this tab closes. Otherwise it is forgotten when the page reloads."
        checked={values.remember}
        onChange={(event) => setValues((v) => ({ ...v, remember: event.target.checked }))}
      />
      <FormError message={formError} />
      <Button type="submit" variant="primary" className="w-full" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
