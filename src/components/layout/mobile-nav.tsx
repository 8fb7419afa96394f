import { useLocation } from '@tanstack/react-router';
import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState, type ReactNode } from 'react';

/**
 * Below 768 px the sidebar is a drawer: a labelled menu button in the top bar opens it (Radix
 * Dialog: focus kept inside, Escape or the close button closes it, focus goes back to the
 * button); following a link closes it.
 */
export function MobileNav({ children }: { children: ReactNode }) {
  const href = useLocation({ select: (l) => l.href });
  // Open on the page it was opened on: a navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  return (
    <Dialog.Root open={openOn === href} onOpenChange={(open) => setOpenOn(open ? href : null)}>
      <Dialog.Trigger
        className="-ml-1.5 inline-flex size-9 shrink-0 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 md:hidden dark:text-gray-300 dark:hover:bg-gray-800"
        aria-label="Open menu"
      >
        <Menu aria-hidden="true" className="size-5" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 w-[min(18rem,85vw)] overflow-y-auto border-r border-gray-200 bg-gray-50 shadow-xl md:hidden dark:border-gray-800 dark:bg-gray-900"
        >
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <Dialog.Close
            className="absolute right-2 top-3 inline-flex size-9 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800"
            aria-label="Close menu"
          >
            <X aria-hidden="true" className="size-5" />
          </Dialog.Close>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
