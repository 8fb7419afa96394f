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
 * it sticks to the frame's left edge with the row's background. The list kit's tables become
 * cards on phones (see data-table.tsx), so this applies from `md` up.
 */
export const pinnedCellClasses =
  'md:sticky md:left-0 md:z-[1] md:bg-white md:group-hover:bg-gray-50 md:dark:bg-gray-950 md:dark:group-hover:bg-gray-900';
export const pinnedHeaderClasses = 'md:sticky md:left-0 md:z-[1]';
