import { ChevronsUpDown } from 'lucide-react';
import { lazy, Suspense, useState, type ReactElement, type ReactNode } from 'react';

export interface SwitcherEntry {
  key: string;
  label: string;
  selected: boolean;
  /** The link the entry opens, without children (the menu fills in label and styling). */
  link: ReactElement<{ className?: string; children?: ReactNode }>;
}

export interface SwitcherMenuProps {
  /** What is being switched, e.g. "Organization": the trigger reads "Organization: Acme". */
  kind: string;
  current: string | null;
  placeholder: string;
  /** Undefined while loading. */
  entries: SwitcherEntry[] | undefined;
  emptyText: string;
}

export interface SwitcherMenuPopupProps extends SwitcherMenuProps {
  /** The stand-in trigger had focus / was activated before the menu's code arrived. */
  takeFocus: boolean;
  startOpen: boolean;
}

export const switcherTriggerClasses =
  'flex w-full items-center justify-between gap-2 rounded-md border border-gray-300 bg-white px-2.5 py-1.5 text-left text-sm hover:bg-gray-50 dark:border-gray-700 dark:bg-gray-900 dark:hover:bg-gray-800';

export function SwitcherTriggerContent({
  kind,
  current,
  placeholder,
}: Pick<SwitcherMenuProps, 'kind' | 'current' | 'placeholder'>) {
  return (
    <>
      <span className="truncate">
        <span className="sr-only">{kind}: </span>
        {current ?? placeholder}
      </span>
      <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
    </>
  );
}

// The menu itself (Radix DropdownMenu) loads right after the page: it is not needed to show it.
const SwitcherMenuPopup = lazy(() => import('./switcher-menu-popup'));

/** A keyboard-accessible menu (Radix DropdownMenu) for jumping between organizations or projects. */
export function SwitcherMenu(props: SwitcherMenuProps) {
  // Until the menu's code is here, a stand-in trigger remembers focus and a request to open.
  const [focused, setFocused] = useState(false);
  const [openRequested, setOpenRequested] = useState(false);
  return (
    <Suspense
      fallback={
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded="false"
          className={switcherTriggerClasses}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onClick={() => setOpenRequested(true)}
        >
          <SwitcherTriggerContent {...props} />
        </button>
      }
    >
      <SwitcherMenuPopup {...props} takeFocus={focused} startOpen={openRequested} />
    </Suspense>
  );
}
