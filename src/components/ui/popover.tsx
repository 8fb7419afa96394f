import { Popover as RadixPopover } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from './cn';

interface PopoverProps {
  /** The element that opens it (a button); it gets aria-expanded and aria-controls. */
  trigger: ReactNode;
  children: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Names the popover's content for screen readers. */
  label: string;
  align?: 'start' | 'center' | 'end';
  className?: string;
}

/**
 * A non-modal popup anchored to its trigger (Radix: Escape and outside clicks close it, focus
 * returns to the trigger). The builders' pickers and the date range use it.
 */
export function Popover({ trigger, children, open, onOpenChange, label, align = 'start', className }: PopoverProps) {
  return (
    <RadixPopover.Root {...(open === undefined ? {} : { open })} {...(onOpenChange ? { onOpenChange } : {})}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          aria-label={label}
          align={align}
          sideOffset={4}
          collisionPadding={8}
          className={cn(
            'z-50 max-h-[min(28rem,var(--radix-popover-content-available-height))] w-72 overflow-auto rounded-lg border border-gray-200 bg-white p-2 shadow-lg',
            'dark:border-gray-700 dark:bg-gray-900',
            className,
          )}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
