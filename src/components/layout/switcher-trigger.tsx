import { ChevronsUpDown } from 'lucide-react';
import type { ReactElement, ReactNode } from 'react';

/** What the switcher and its lazily loaded menu both need: props, trigger look and content. */

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
