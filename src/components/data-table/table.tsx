import type { ComponentProps } from 'react';
import { cn } from '@/components/ui/cn';

/**
 * A real table with a caption (visually hidden unless asked) and column headers. It scrolls
 * sideways inside its frame (the frame is `relative`, so visually hidden labels in cells never
 * widen the page). A table with nothing focusable in it sets `keyboardScroll`: its scroll area
 * then takes focus, so keyboard users can scroll it sideways.
 */
export function Table({
  caption,
  showCaption = false,
  keyboardScroll = false,
  className,
  children,
  ...props
}: ComponentProps<'table'> & { caption: string; showCaption?: boolean; keyboardScroll?: boolean }) {
  return (
    <div
      className="scroll-cue-x relative overflow-x-auto rounded-lg border border-gray-200 dark:border-gray-800"
      {...(keyboardScroll ? { tabIndex: 0, role: 'region', 'aria-label': caption } : {})}
    >
      <table className={cn('w-full border-collapse text-left text-sm', className)} {...props}>
        <caption className={showCaption ? 'p-3 text-left font-medium' : 'sr-only'}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** A header cell: of a column by default; a row's header (`scope="row"`) has its row's divider, as a Td. */
export function Th({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope={scope}
      className={cn(
        'border-b bg-gray-50 px-4 py-2.5 font-medium text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300',
        scope === 'row' ? 'border-gray-100' : 'border-gray-200',
        className,
      )}
      {...props}
    />
  );
}

/** A data cell's own classes (Td's, and the list kit's rows, which draw `<td>` directly). */
export const cellClasses = 'border-b border-gray-100 px-4 py-2.5 dark:border-gray-800';

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn(cellClasses, className)} {...props} />;
}

/**
 * Classes of the column kept in view while a table scrolls sideways (its identifying column):
 * it sticks to the frame's left edge, with the row's background, and wraps between words; on a
 * narrow screen a word longer than the column breaks (else one long name would make the kept
 * column wider than the screen, hiding every other).
 */
export const pinnedCellClasses =
  'sticky left-0 z-[1] bg-white group-hover:bg-gray-50 max-md:min-w-36 max-md:whitespace-normal max-md:wrap-anywhere max-md:border-r dark:bg-gray-950 dark:group-hover:bg-gray-900';
export const pinnedHeaderClasses = 'sticky left-0 z-[1] max-md:border-r';
/** Other cells on narrow screens: one line each (identifiers never wrap letter by letter); the frame scrolls. */
export const unpinnedCellClasses = 'max-md:whitespace-nowrap';
