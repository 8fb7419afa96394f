import { Tabs as RadixTabs } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';

/** Tabs (Radix: tablist / tab / tabpanel, arrow keys move between tabs). Control `value` from the URL. */
export const Tabs = RadixTabs.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof RadixTabs.List>) {
  return (
    <RadixTabs.List className={cn('flex gap-1 border-b border-gray-200 dark:border-gray-800', className)} {...props} />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof RadixTabs.Trigger>) {
  return (
    <RadixTabs.Trigger
      className={cn(
        '-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-gray-700 hover:text-gray-900 dark:text-gray-300 dark:hover:text-white',
        'data-[state=active]:border-indigo-600 data-[state=active]:text-indigo-800 dark:data-[state=active]:border-indigo-400 dark:data-[state=active]:text-indigo-200',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof RadixTabs.Content>) {
  return <RadixTabs.Content className={cn('pt-4 focus:outline-none', className)} {...props} />;
}
