import { Check } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { cloneElement, useEffect, useRef, useState } from 'react';
import { SwitcherTriggerContent, switcherTriggerClasses, type SwitcherMenuPopupProps } from './switcher-trigger';

const itemClasses =
  'flex cursor-pointer items-center justify-between gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-indigo-50 data-[highlighted]:text-indigo-900 dark:data-[highlighted]:bg-indigo-950 dark:data-[highlighted]:text-indigo-100';

export default function SwitcherMenuPopup({
  kind,
  current,
  placeholder,
  entries,
  emptyText,
  takeFocus,
  startOpen,
}: SwitcherMenuPopupProps) {
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(startOpen);
  // Only on arrival: afterwards focus is the user's.
  const focusOnArrival = useRef(takeFocus && !startOpen);
  useEffect(() => {
    if (focusOnArrival.current) trigger.current?.focus();
  }, []);
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger ref={trigger} className={switcherTriggerClasses}>
        <SwitcherTriggerContent kind={kind} current={current} placeholder={placeholder} />
      </DropdownMenu.Trigger>
      {/* Not portalled: the menu stays inside the sidebar landmark. Focusable: a long list scrolls. */}
      <DropdownMenu.Content
        tabIndex={0}
        align="start"
        sideOffset={4}
        className="z-50 max-h-80 min-w-56 overflow-y-auto rounded-md border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-700 dark:bg-gray-900"
      >
        {entries === undefined ? (
          <p className="px-2 py-1.5 text-sm text-gray-600 dark:text-gray-400">Loading…</p>
        ) : null}
        {entries?.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-gray-600 dark:text-gray-400">{emptyText}</p>
        ) : null}
        {entries?.map((entry) => (
          <DropdownMenu.Item key={entry.key} asChild>
            {cloneElement(entry.link, {
              className: itemClasses,
              children: (
                <>
                  <span className="truncate">{entry.label}</span>
                  {entry.selected ? <Check aria-hidden="true" className="size-4 shrink-0" /> : null}
                </>
              ),
            })}
          </DropdownMenu.Item>
        ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
