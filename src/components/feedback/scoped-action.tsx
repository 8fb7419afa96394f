import { cloneElement, type ReactElement } from 'react';
import type { Scope } from '@/contract/common';
import { useCan } from '@/lib/auth';
import { Tooltip } from '@/components/ui/tooltip';

interface ScopedActionProps {
  /** The scope the action needs, e.g. `organizationEndpoints.update.access`. */
  scope: Scope;
  /** One button (or anything taking `disabled`). */
  children: ReactElement<{ disabled?: boolean }>;
}

/**
 * Renders the action as is when the API key carries `scope`; otherwise disabled, with a tooltip
 * ("Your API key lacks the organization:write scope"). A disabled button receives neither pointer
 * nor focus events, so the tooltip hangs on a focusable wrapper.
 */
export function ScopedAction({ scope, children }: ScopedActionProps) {
  const { allowed, reason } = useCan(scope);
  if (allowed) return children;
  return (
    <Tooltip content={reason}>
      {/* A disabled button gets neither focus nor hover: this wrapper carries the tooltip for keyboard and mouse. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <span tabIndex={0} className="inline-flex rounded-md" data-missing-scope={scope}>
        {cloneElement(children, { disabled: true })}
      </span>
    </Tooltip>
  );
}
