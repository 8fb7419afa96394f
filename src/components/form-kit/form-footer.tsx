import type { ReactNode } from 'react';
import type { Scope } from '@/contract/common';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { FormError } from './fields';

interface FormFooterProps {
  /** The form-level error (`errors.root?.server?.message`): a failure no field owns. */
  error: string | undefined;
  submitLabel: string;
  /** Shown on the submit button while the request runs ("Saving…"). */
  pendingLabel: string;
  isSubmitting: boolean;
  /** Besides while submitting (e.g. nothing changed yet). */
  disabled?: boolean;
  /** The scope submitting needs: without it the button is disabled with the reason. */
  scope?: Scope;
  /** `end` in dialogs (secondary buttons, then submit, on the right); `start` on pages (submit first). */
  align?: 'start' | 'end';
  /** Secondary buttons: Cancel, Discard changes. */
  children?: ReactNode;
}

/** The end of every form: its form-level error, then the submit button and the secondary ones. */
export function FormFooter({
  error,
  submitLabel,
  pendingLabel,
  isSubmitting,
  disabled = false,
  scope,
  align = 'start',
  children,
}: FormFooterProps) {
  const submit = (
    <Button type="submit" variant="primary" disabled={disabled || isSubmitting}>
      {isSubmitting ? pendingLabel : submitLabel}
    </Button>
  );
  const scoped = scope ? <ScopedAction scope={scope}>{submit}</ScopedAction> : submit;
  return (
    <>
      <FormError message={error} />
      <div className={cn('flex gap-2', align === 'end' && 'justify-end')}>
        {align === 'end' ? (
          <>
            {children}
            {scoped}
          </>
        ) : (
          <>
            {scoped}
            {children}
          </>
        )}
      </div>
    </>
  );
}
