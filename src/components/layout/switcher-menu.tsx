import { Suspense, useState, type KeyboardEvent } from 'react';
import { preloadable } from '@/lib/preloadable';
import { SwitcherTriggerContent, switcherTriggerClasses, type SwitcherMenuProps } from './switcher-trigger';

export type { SwitcherEntry, SwitcherMenuProps } from './switcher-trigger';

// The menu itself (Radix DropdownMenu) loads when it is first opened (fetched ahead when the
// pointer or focus reaches the trigger): no page needs it to show.
const popup = preloadable(() => import('./switcher-menu-popup'));
const SwitcherMenuPopup = popup.Component;
const prefetch = () => void popup.load().catch(() => undefined);

/** A keyboard-accessible menu (Radix DropdownMenu) for jumping between organizations or projects. */
export function SwitcherMenu(props: SwitcherMenuProps) {
  // Until the menu is first opened, a stand-in trigger; opening it loads the menu, which opens at once.
  const [opened, setOpened] = useState(false);
  const open = () => setOpened(true);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open();
    }
  };
  const standIn = (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={opened}
      className={switcherTriggerClasses}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={open}
      onKeyDown={onKeyDown}
    >
      <SwitcherTriggerContent {...props} />
    </button>
  );
  if (!opened) return standIn;
  return (
    <Suspense fallback={standIn}>
      <SwitcherMenuPopup {...props} takeFocus startOpen />
    </Suspense>
  );
}
