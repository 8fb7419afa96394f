import { AlertDialog, Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { useFocusReturn } from '@/lib/focus-return';
import { cn } from './cn';

const overlayClasses = 'fixed inset-0 z-40 bg-black/50';
// wrap-anywhere: a name without spaces (an organization's, up to 64 characters) wraps inside the
// dialog instead of running out of it on a phone.
const contentClasses =
  'wrap-anywhere fixed left-1/2 top-1/2 z-50 w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-gray-200 bg-white p-6 shadow-xl dark:border-gray-700 dark:bg-gray-900';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** A modal dialog (Radix: focus trapped, Escape closes, labelled by its title). */
export function Modal({ open, onOpenChange, title, description, children }: ModalProps) {
  const focusReturn = useFocusReturn(open);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClasses} />
        <Dialog.Content
          className={contentClasses}
          {...focusReturn}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
              {description}
            </Dialog.Description>
          ) : null}
          <div className="mt-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A confirmation for an irreversible action (role alertdialog). */
export function ConfirmDialog({ open, onOpenChange, title, description, children, className }: ConfirmDialogProps) {
  const focusReturn = useFocusReturn(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(contentClasses, className)} {...focusReturn}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1 text-sm text-gray-700 dark:text-gray-300">
            {description}
          </AlertDialog.Description>
          <div className="mt-4">{children}</div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export const ConfirmDialogCancel = AlertDialog.Cancel;
export const DialogClose = Dialog.Close;
