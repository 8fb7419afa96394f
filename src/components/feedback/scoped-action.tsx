import { cloneElement, type ReactElement } from 'react';
import type { Scope } from '@/contract/common';
import { useCan } from '@/lib/auth';
import { Tooltip } from '@/components/ui/tooltip';

interface ScopedActionProps {
  /** The scope the action needs, e.g. `organizationEndpoints.update.access`. */
  scope: Scope;
  /** One button (or anything taking `disabled`). */
  children: ReactElement<{ disabled?: boolean }>;
  /**
   * Why the action is refused whatever the key carries (a rule of the caller's level: "Only
   * owners can delete an organization."): disabled with that reason too. Null or absent: none.
   */
  refusal?: string | null | undefined;
}

/**
 * Renders the action as is when the API key carries `scope` (and no `refusal` applies); otherwise
 * disabled, with a tooltip ("Your API key lacks the organization:write scope", or the refusal). A disabled button receives neither pointer
 * nor focus events, so the tooltip hangs on a focusable wrapper.
 */
export function ScopedAction({ scope, children, refusal }: ScopedActionProps) {
  const { allowed, reason } = useCan(scope);
  if (allowed && !refusal) return children;
  return (
    <Tooltip content={allowed ? refusal : reason}>
      {/* A disabled button gets neither focus nor hover: this wrapper carries the tooltip for keyboard and mouse. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <span tabIndex={0} className="inline-flex rounded-md" data-missing-scope={allowed ? undefined : scope}>
        {cloneElement(children, { disabled: true })}
      </span>
    </Tooltip>
  );
}
