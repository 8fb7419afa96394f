import { Command as Cmdk } from 'cmdk';
import { useState, type ComponentProps } from 'react';
import { cn } from './cn';

/**
 * A searchable list (cmdk): a combobox input over a listbox of options, arrow keys move, Enter
 * picks, Home/End jump. Give `Command` a `label` (it names the input) and `CommandList` a
 * `label` (it names the listbox).
 */
export function Command({
  className,
  firstValue,
  ...props
}: ComponentProps<typeof Cmdk> & { firstValue?: string | undefined }) {
  const [value, setValue] = useFirstValueHighlight(firstValue, props.defaultValue);
  return (
    <Cmdk
      className={cn('flex flex-col gap-1 outline-none', className)}
      value={value}
      onValueChange={setValue}
      {...props}
    />
  );
}

/**
 * cmdk highlights the first option when the search text changes. A list whose options arrive
 * later (a server search answering after the keystroke) would keep the highlight where it was,
 * e.g. on "Use “purch”" while "purchase" is now first; so when the first option's value changes,
 * the highlight moves to it, and Enter picks what the user sees on top.
 */
function useFirstValueHighlight(firstValue: string | undefined, defaultValue: string | undefined) {
  const [value, setValue] = useState(defaultValue ?? '');
  const [seen, setSeen] = useState(firstValue);
  if (firstValue !== seen) {
    setSeen(firstValue);
    if (firstValue !== undefined) setValue(firstValue);
  }
  return [value, setValue] as const;
}

export function CommandInput({ className, ...props }: ComponentProps<typeof Cmdk.Input>) {
  return (
    <Cmdk.Input
      className={cn(
        'block w-full rounded-md border border-gray-300 bg-white px-2.5 py-1.5 text-sm text-gray-900 placeholder:text-gray-500',
        'dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100 dark:placeholder:text-gray-400',
        className,
      )}
      {...props}
    />
  );
}

export function CommandList({ className, ...props }: ComponentProps<typeof Cmdk.List>) {
  return <Cmdk.List className={cn('max-h-72 overflow-y-auto overscroll-contain outline-none', className)} {...props} />;
}

export function CommandItem({ className, ...props }: ComponentProps<typeof Cmdk.Item>) {
  return (
    <Cmdk.Item
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-gray-900 select-none dark:text-gray-100',
        'data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-900 dark:data-[selected=true]:bg-indigo-950 dark:data-[selected=true]:text-indigo-100',
        'data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-60',
        className,
      )}
      {...props}
    />
  );
}

export function CommandGroup({ className, ...props }: ComponentProps<typeof Cmdk.Group>) {
  return (
    <Cmdk.Group
      className={cn(
        '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-gray-600 dark:[&_[cmdk-group-heading]]:text-gray-400',
        className,
      )}
      {...props}
    />
  );
}

/** A line of state inside the list (loading, nothing found, an error): announced politely. */
export function CommandStatus({
  className,
  tone = 'neutral',
  ...props
}: ComponentProps<'p'> & { tone?: 'neutral' | 'danger' }) {
  return (
    <p
      role="status"
      className={cn(
        'px-2 py-3 text-sm',
        tone === 'danger' ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400',
        className,
      )}
      {...props}
    />
  );
}
